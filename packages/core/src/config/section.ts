// Core's part of toolbelt.config.json: what the policy and the executor read. The other packages
// own theirs (tools: shell, sandbox, ...; mcp: mcpServers; gateway: gateway, tools) and the CLI
// composes them into the one schema of the file.
import { z } from 'zod';
import { MODES, type Mode } from '../policy/types.js';
import { STRUCTURED_TEXTS, type StructuredText } from '../structured-text.js';
import { effectSchema, mustBe, oneOf, positiveInt, atLeastZeroInt } from './parts.js';

const argMatcher = z.union([z.string(), z.number(), z.boolean(), z.null(), z.strictObject({ pattern: z.string() })]);
const oneOrMany = <T extends z.ZodType>(item: T, what: string) => z.union([item, z.array(item)], mustBe(what));

export const ruleSchema = z.strictObject({
  tool: oneOrMany(z.string(), 'a tool name glob or a list of them').optional(),
  effect: oneOrMany(effectSchema, 'an effect ("read", "write", "execute", "destructive") or a list of them').optional(),
  command: z.string().optional(),
  path: z.string().optional(),
  url: z.string().optional(),
  args: z.record(z.string(), argMatcher).optional(),
  action: oneOf(['allow', 'ask', 'deny']),
  reason: z.string().optional(),
});

/** Overrides of one tool's own settings, by tool name; `enabled: false` leaves the tool out. */
export const toolSettingsSchema = z.strictObject({
  enabled: z.boolean().optional(),
  timeoutMs: positiveInt().optional(),
  retry: z
    .strictObject({
      attempts: z.number(mustBe('an integer from 0 to 3')).int().min(0).max(3),
      baseDelayMs: positiveInt().optional(),
    })
    .optional(),
  cacheTtlMs: atLeastZeroInt().optional(),
});

/** The executor's limits for every call. */
export const callLimitsSchema = z.strictObject({
  maxOutputChars: positiveInt().optional(),
  defaultTimeoutMs: positiveInt().optional(),
  approvalTimeoutMs: positiveInt().optional(),
});

export const coreConfigShape = {
  mode: oneOf(MODES as readonly Mode[] as [Mode, ...Mode[]])
    .describe(
      'How much runs without asking: ask, safe (reads), auto-edit (reads and edits), yolo (all but hard denies)',
    )
    .optional(),
  rules: z.array(ruleSchema).describe('Policy rules; the last one that matches a call decides').optional(),
  hardDeny: z
    .array(ruleSchema)
    .describe('Rules that deny whatever the mode, rules or remembered approvals say')
    .optional(),
  toolSettings: z
    .record(z.string(), toolSettingsSchema)
    .describe('Per tool name: enabled, timeoutMs, retry, cacheTtlMs')
    .optional(),
  limits: callLimitsSchema.describe('Limits of every call: output size, default timeout, approval wait').optional(),
  log: z
    .strictObject({
      redact: z
        .array(z.string())
        .describe('Parameter names whose values the log keeps as [redacted: N chars], e.g. ["content", "new_string"]')
        .optional(),
      results: z.boolean().describe('Log what calls returned (default true)').optional(),
    })
    .describe('What the execution log (.toolbelt/executions.jsonl, the gateway database) leaves out')
    .optional(),
  aliases: z
    .boolean()
    .describe(
      "Accept other tool sets' names for tools and parameters in calls (bash, Read, old_str; default true); false refuses them",
    )
    .optional(),
  structuredText: oneOf(STRUCTURED_TEXTS as [StructuredText, ...StructuredText[]])
    .describe(
      'How structured results reach the model as text: json (pretty, the default) or toon (TOON or compact JSON, whichever is shorter)',
    )
    .optional(),
};

export const coreConfigSchema = z.object(coreConfigShape);
export type CoreConfig = z.infer<typeof coreConfigSchema>;
export type ToolSettings = z.infer<typeof toolSettingsSchema>;
