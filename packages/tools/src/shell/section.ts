// The `shell` section of toolbelt.config.json as written; settings.ts adds the defaults. (allow and
// deny become policy rules in the CLI runtime; they are not the tools' business.)
import { z } from 'zod';
import { atLeastZeroInt, mustBe, positiveInt, resourceLimitsSchema, stringList } from '@toolbelt/core';

const VARIABLE_NAME = 'a variable name (letters, digits, "_"; "*" for any run of them)';
const variableNames = z.array(
  z.string(mustBe(VARIABLE_NAME)).regex(/^[A-Za-z0-9_*]+$/, mustBe(VARIABLE_NAME)),
  mustBe('a list of variable names (`*` allowed)'),
);

export const shellSection = z
  .strictObject({
    allow: stringList('a list of command prefixes')
      .describe('Command prefixes that run without asking (rules for shell_exec and shell_background)')
      .optional(),
    deny: stringList('a list of command prefixes').describe('Command prefixes that are refused').optional(),
    defaultTimeoutMs: positiveInt().describe('Per call when timeout_ms is not given. Default 120000').optional(),
    maxTimeoutMs: positiveInt().describe('No call may ask for more. Default 600000').optional(),
    maxOutputBytes: positiveInt().describe('Per stream: bytes kept as head + tail. Default 30000').optional(),
    maxOutputFileBytes: atLeastZeroInt()
      .describe('Per stream: most bytes saved to a temp file when output is cut; 0 saves none')
      .optional(),
    hideEnv: variableNames
      .describe("Variable name patterns removed from commands' environment (replaces the default)")
      .optional(),
    passEnv: variableNames.describe('Variable names kept although hideEnv matches them').optional(),
    limits: resourceLimitsSchema.describe("Resource limits per command, over the sandbox's").optional(),
  })
  .describe('shell_exec and shell_background');

export type ShellSection = z.infer<typeof shellSection>;
