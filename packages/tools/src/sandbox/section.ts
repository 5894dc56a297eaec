// The `sandbox` section of toolbelt.config.json as written; settings.ts adds the defaults.
import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { mustBe, nonEmptyString, oneOf, resourceLimitsSchema } from '@toolbelt/core';

const SANDBOX_MODES = ['auto', 'required', 'off'] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

// There is no one directory a relative path would start from, so paths are absolute or from `~`.
const PATH = 'an absolute path or one starting with "~/"';
const placed = (path: string) => path === '~' || path.startsWith('~/') || isAbsolute(path);
const pathList = (unhide: boolean) =>
  z.array(
    z
      .string(mustBe(PATH))
      .refine(
        (p) => placed(unhide && p.startsWith('!') ? p.slice(1) : p),
        mustBe(unhide ? `${PATH} ("!" before it unhides a default)` : PATH),
      ),
    mustBe('a list of absolute paths or paths starting with "~/"'),
  );

export const sandboxSection = z
  .strictObject({
    mode: oneOf(SANDBOX_MODES)
      .describe('auto: bubblewrap when it works; required: refuse without it; off: never')
      .optional(),
    network: z
      .union([z.boolean(), z.array(nonEmptyString())], mustBe('true, false or a list of command prefixes'))
      .describe('true: every command and server may use the network; a list: command prefixes that may')
      .optional(),
    writable: pathList(false).describe('Directories writable besides the workspace roots (absolute or ~/…)').optional(),
    hidden: pathList(true)
      .describe('Paths shown empty besides the defaults (absolute or ~/…); "!path" unhides a default')
      .optional(),
    sockets: pathList(false)
      .describe(
        'Local sockets (or their directories) kept visible in the sandbox, which otherwise hides /run (absolute or ~/…)',
      )
      .optional(),
    limits: resourceLimitsSchema.describe('Resource limits per process').optional(),
    bwrapPath: nonEmptyString('a path or a program name').optional(),
  })
  .describe('Where shell commands and stdio MCP servers run: bubblewrap (docs/policy.md#sandbox)');

export type SandboxSection = z.infer<typeof sandboxSection>;
