// toolbelt.config.json: one file for mode, rules, declared tools, MCP servers and tool settings.
// Unknown keys and wrong types are reported with their path, never ignored.
import { z } from 'zod';
import { EFFECTS } from './tool.js';
import { MODES } from './policy/types.js';

const effect = z.enum(EFFECTS as [string, ...string[]]);
const argMatcher = z.union([z.string(), z.number(), z.boolean(), z.null(), z.strictObject({ pattern: z.string() })]);

export const ruleSchema = z.strictObject({
  tool: z.union([z.string(), z.array(z.string())]).optional(),
  effect: z.union([effect, z.array(effect)]).optional(),
  command: z.string().optional(),
  path: z.string().optional(),
  url: z.string().optional(),
  args: z.record(z.string(), argMatcher).optional(),
  action: z.enum(['allow', 'ask', 'deny']),
  reason: z.string().optional(),
});

/** Seed 001's declared tool. */
export const declaredToolSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'use 1-64 letters, digits, "_" or "-"'),
  description: z.string().min(1),
  inputSchema: z.record(z.string(), z.unknown()),
  executionType: z.enum(['gateway', 'external', 'space', 'internal']),
  visible: z.boolean().optional(),
  isAsync: z.boolean().optional(),
  timeout: z.number().int().positive().optional(),
  effect: effect.optional(),
  execution: z
    .strictObject({
      url: z.string().url(),
      method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional(),
      headers: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
});

/** Retries of HTTP requests that failed for a passing reason (reset, 408, 429, 5xx); see net/retry.ts. */
export const httpRetrySchema = z.strictObject({
  attempts: z.number().int().min(0).max(3).optional(),
  baseDelayMs: z.number().int().positive().optional(),
  maxRetryAfterMs: z.number().int().min(0).optional(),
});

/** Resource limits (Linux rlimits), per process: `memoryMb` is address space, `dataMb` writable memory. */
const limitsSchema = z.strictObject({
  cpuSeconds: z.number().int().positive().optional(),
  memoryMb: z.number().int().positive().optional(),
  dataMb: z.number().int().positive().optional(),
  openFiles: z.number().int().positive().optional(),
  processes: z.number().int().positive().optional(),
});

/** Where commands and stdio MCP servers run: bubblewrap, see docs/policy.md#sandbox. */
export const sandboxSchema = z.strictObject({
  mode: z.enum(['auto', 'required', 'off']).optional(),
  /** true: every command and server may use the network; a list: command prefixes that may. */
  network: z.union([z.boolean(), z.array(z.string().min(1))]).optional(),
  /** Directories writable besides the workspace roots (absolute or `~/…`). */
  writable: z.array(z.string().min(1)).optional(),
  /** Paths shown empty besides the defaults (absolute or `~/…`); `!path` unhides a default. */
  hidden: z.array(z.string().min(1)).optional(),
  limits: limitsSchema.optional(),
  bwrapPath: z.string().min(1).optional(),
});

export const mcpServerSchema = z.strictObject({
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  /** stdio: where the server starts, relative to the first workspace root (its default), and inside the roots. */
  cwd: z.string().optional(),
  url: z.string().url().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  transport: z.enum(['stdio', 'http', 'sse']).optional(),
  allowedTools: z.array(z.string()).optional(),
  excludeTools: z.array(z.string()).optional(),
  timeoutMs: z.number().int().positive().optional(),
  connectTimeoutMs: z.number().int().positive().optional(),
  enabled: z.boolean().optional(),
  /** The least effect of every tool of this server; its annotations may raise it, never lower it. */
  minEffect: effect.optional(),
  /** "read": its readOnlyHint makes a tool a read (runs in safe mode). Without it no hint lowers a tool below execute. */
  trust: z.enum(['read'], { error: 'use "read" (believe this server\'s readOnlyHint) or leave "trust" out' }).optional(),
  /** Over the sandbox's limits for this server. */
  limits: limitsSchema.optional(),
  /** The server may use the network from inside the sandbox. */
  network: z.boolean().optional(),
  /** HTTP and SSE servers: retries of a request that failed for a passing reason. Default 3. */
  retry: httpRetrySchema.optional(),
});

export const toolSettingsSchema = z.strictObject({
  enabled: z.boolean().optional(),
  timeoutMs: z.number().int().positive().optional(),
  retry: z.strictObject({ attempts: z.number().int().min(0).max(3), baseDelayMs: z.number().int().positive().optional() }).optional(),
  cacheTtlMs: z.number().int().min(0).optional(),
});

// One gateway token, given exactly one way (the gateway checks that): its hash, a file outside the
// workspace holding it, an environment variable, or the token itself.
//   { "tokenHash": "sha256:<64 hex digits>", "roles": ["call"], "agents": ["planner"] }   (from `toolbelt token new`)
//   { "tokenFile": "/etc/toolbelt/planner.token", "roles": ["call"] }   (the token, or its sha256: hash)
//   { "tokenEnv": "PLANNER_TOKEN", "roles": ["call"] }
//   { "token": "<at least 16 characters>", "roles": ["call"] }   (hashed at start; keep this file private)
const tokenSchema = z.strictObject({
  token: z.string().min(16, 'tokens must be at least 16 characters').optional(),
  tokenHash: z.string().regex(/^sha256:[0-9a-fA-F]{64}$/, 'use "sha256:" and 64 hex digits, as printed by `toolbelt token new`').optional(),
  tokenFile: z.string().min(1).optional(),
  tokenEnv: z.string().optional(),
  agents: z.array(z.string()).optional(),
  roles: z.array(z.enum(['call', 'submit', 'approve', 'events', 'admin'])),
  name: z.string().optional(),
});

export const configSchema = z.strictObject({
  $schema: z.string().optional(),
  mode: z.enum(MODES as [string, ...string[]]).optional(),
  rules: z.array(ruleSchema).optional(),
  hardDeny: z.array(ruleSchema).optional(),
  tools: z.array(declaredToolSchema).optional(),
  mcpServers: z.record(z.string(), mcpServerSchema).optional(),
  toolSettings: z.record(z.string(), toolSettingsSchema).optional(),
  workspace: z.strictObject({ roots: z.array(z.string()).optional(), cwd: z.string().optional() }).optional(),
  shell: z
    .strictObject({
      allow: z.array(z.string()).optional(),
      deny: z.array(z.string()).optional(),
      defaultTimeoutMs: z.number().int().positive().optional(),
      maxTimeoutMs: z.number().int().positive().optional(),
      maxOutputBytes: z.number().int().positive().optional(),
      maxOutputFileBytes: z.number().int().min(0).optional(),
      limits: limitsSchema.optional(),
    })
    .optional(),
  sandbox: sandboxSchema.optional(),
  search: z.strictObject({ rgPath: z.string().optional(), engine: z.enum(['auto', 'rg', 'js']).optional() }).optional(),
  web: z
    .strictObject({ allowHosts: z.array(z.string()).optional(), braveApiKey: z.string().optional(), braveBaseUrl: z.string().url().optional(), userAgent: z.string().optional(), retry: httpRetrySchema.optional() })
    .optional(),
  lsp: z.record(z.string(), z.strictObject({ command: z.string(), args: z.array(z.string()).optional(), extensions: z.array(z.string()), languageId: z.string().optional() })).optional(),
  gateway: z
    .strictObject({
      host: z.string().optional(),
      port: z.number().int().min(0).max(65535).optional(),
      db: z.string().optional(),
      databaseUrl: z.string().optional(),
      tokens: z.array(tokenSchema).optional(),
      /**
       * Host names (or addresses) the gateway answers besides localhost, 127.0.0.1, [::1] and the
       * address it listens on; any other Host or Origin is refused against DNS rebinding.
       */
      allowedHosts: z.array(z.string()).optional(),
      /** Largest request body the gateway reads; larger ones get 413. Default 4 MiB. */
      maxBodyBytes: z.number().int().positive().optional(),
      /** How long an open (pending) call accepts its result before it expires. Default 24 h. */
      pendingTtlMs: z.number().int().positive().optional(),
    })
    .optional(),
  limits: z.strictObject({ maxOutputChars: z.number().int().positive().optional(), defaultTimeoutMs: z.number().int().positive().optional(), approvalTimeoutMs: z.number().int().positive().optional() }).optional(),
});

export type ToolbeltConfig = z.infer<typeof configSchema>;
export type DeclaredTool = z.infer<typeof declaredToolSchema>;
export type McpServerConfig = z.infer<typeof mcpServerSchema>;
export type ToolSettings = z.infer<typeof toolSettingsSchema>;

export class ConfigError extends Error {
  constructor(readonly source: string, readonly problems: string[]) {
    super(`${source} is invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function pathOf(path: readonly PropertyKey[]): string {
  return path.length ? path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '') : '(top level)';
}

/** Parses config JSON (text or value); throws ConfigError listing every problem with its path. */
export function parseConfig(source: string, raw: string | unknown): ToolbeltConfig {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch (err) {
      throw new ConfigError(source, [`not valid JSON: ${(err as Error).message}`]);
    }
  }
  const parsed = configSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => {
    if (i.code === 'unrecognized_keys') return `${pathOf(i.path)}: unknown key${i.keys.length > 1 ? 's' : ''} ${i.keys.map((k) => `"${k}"`).join(', ')}`;
    return `${pathOf(i.path)}: ${i.message}`;
  });
  throw new ConfigError(source, problems);
}
