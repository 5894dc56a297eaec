// The `shell` section of toolbelt.config.json as written; settings.ts adds the defaults the tools
// run with. allow and deny are not the tools' business: shellRulesFrom turns them into policy rules, which
// whoever builds the policy (the CLI's runtime) puts before the config's own.
import { z } from 'zod';
import { atLeastZeroInt, mustBe, positiveInt, resourceLimitsSchema, stringList, type Rule } from '@toolbelt/core';

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

/** The tools shell.allow and shell.deny speak of. */
const SHELL_TOOLS = ['shell_exec', 'shell_background'];

/** shell.allow and shell.deny as the policy rules they are: allow, then deny (matched last to first, a deny wins). */
export function shellRulesFrom(shell: Pick<ShellSection, 'allow' | 'deny'> | undefined): Rule[] {
  const rule =
    (action: 'allow' | 'deny') =>
    (command: string): Rule => ({
      tool: SHELL_TOOLS,
      command,
      action,
      reason: `shell.${action} in config`,
    });
  return [...(shell?.allow ?? []).map(rule('allow')), ...(shell?.deny ?? []).map(rule('deny'))];
}
