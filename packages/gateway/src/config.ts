// The gateway's sections of toolbelt.config.json: `gateway` (address, tokens, limits, database) and
// `tools` (tools declared as JSON, run by URL, by an external worker or answered at once), and
// gatewaySettingsFrom, what the `gateway` section means with its defaults. Light on purpose, zod and
// core only: the CLI loads it for every command (as @toolbelt/gateway/config), the rest of the
// gateway only for `toolbelt serve`.
import { z } from 'zod';
import {
  effectSchema,
  mustBe,
  nonEmptyString,
  oneOf,
  positiveInt,
  stringList,
  type ExecutorSections,
  type PolicySections,
  type CoreConfig,
} from '@toolbelt/core';
import { DEFAULT_CYCLE_LEASE_MS } from './store/index.js';

/**
 * What a gateway token may do. person: a person in spaces, named by the token's name: posts and answers in the
 * spaces it is a member of.
 */
export type Role = 'call' | 'submit' | 'approve' | 'events' | 'person' | 'admin';
export const ROLES: readonly Role[] = ['call', 'submit', 'approve', 'events', 'person', 'admin'];

/** A tool declared as JSON in the config: what the model sees and how the gateway runs it. */
export const declaredToolSchema = z.strictObject({
  name: z
    .string(mustBe('a tool name of 1-64 letters, digits, "_" or "-"'))
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'use 1-64 letters, digits, "_" or "-"'),
  description: nonEmptyString('a description for the model'),
  inputSchema: z.record(z.string(), z.unknown(), mustBe('a JSON Schema object')),
  executionType: oneOf(['gateway', 'external', 'space', 'internal']),
  visible: z.boolean().optional(),
  isAsync: z.boolean().optional(),
  timeout: positiveInt().optional(),
  effect: effectSchema.optional(),
  requiresApproval: z.boolean().optional(),
  execution: z
    .strictObject({
      url: z.url(mustBe('a URL')),
      method: oneOf(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional(),
      headers: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
});

// One gateway token, given exactly one way (tokens.ts checks that): its hash, a file outside the
// workspace holding it, an environment variable, or the token itself.
const tokenSchema = z.strictObject({
  token: z.string().min(16, 'tokens must be at least 16 characters').optional(),
  tokenHash: z
    .string()
    .regex(/^sha256:[0-9a-fA-F]{64}$/, 'use "sha256:" and 64 hex digits, as printed by `toolbelt token new`')
    .optional(),
  tokenFile: nonEmptyString('an absolute path').optional(),
  tokenEnv: z
    .string()
    .describe('An environment variable holding the token (also read from the workspace .env)')
    .optional(),
  agents: stringList('a list of agent ids').optional(),
  roles: z.array(oneOf(ROLES as readonly Role[] as [Role, ...Role[]]), mustBe(`a list of roles (${ROLES.join(', ')})`)),
  name: z.string().optional(),
});

export const gatewaySection = z
  .strictObject({
    host: z.string().describe('Address to listen on; default 127.0.0.1').optional(),
    port: z.number(mustBe('a port from 0 to 65535')).int().min(0).max(65535).optional(),
    db: z
      .string()
      .describe(
        'The gateway database: a SQLite file (default under the user state directory) or postgres://user@host/db for several instances',
      )
      .optional(),
    tokens: z.array(tokenSchema).describe('Bearer tokens, each with roles and optionally agents').optional(),
    allowedHosts: stringList('a list of host names')
      .describe('Host names answered besides localhost and the bound address (against DNS rebinding)')
      .optional(),
    maxBodyBytes: positiveInt().describe('Largest request body read; larger ones get 413. Default 4 MiB').optional(),
    pendingTtlMs: positiveInt().describe('How long an open (pending) call accepts its result. Default 24 h').optional(),
    cycleLeaseMs: positiveInt()
      .describe(
        'How long a think cycle holds its messages before they are offered again, unless it is done or sends a heartbeat. Default 5 min',
      )
      .optional(),
  })
  .describe('toolbelt serve: the HTTP gateway');

export const gatewayConfigShape = {
  gateway: gatewaySection.optional(),
  tools: z.array(declaredToolSchema).describe('Tools declared as JSON (docs/gateway-api.md)').optional(),
};

export type DeclaredTool = z.infer<typeof declaredToolSchema>;
export type GatewaySection = z.infer<typeof gatewaySection>;
export type TokenEntry = z.infer<typeof tokenSchema>;
/**
 * What the gateway reads of a config: its own sections; core's toolSettings for the tools it adds;
 * and, for an executor and policy of its own, core's executor and policy sections (through core's
 * executorOptionsFrom and policyOptionsFrom, as the CLI's runtime does).
 */
export type GatewayConfig = z.infer<z.ZodObject<typeof gatewayConfigShape>> &
  ExecutorSections &
  PolicySections &
  Pick<CoreConfig, 'toolSettings'>;

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 7077;

/** The `gateway` section with its defaults: what createGateway and `toolbelt serve` run with (`db` is the CLI's: it opens the store). */
export interface GatewaySettings {
  host: string;
  port: number;
  tokens: TokenEntry[];
  allowedHosts: string[];
  maxBodyBytes: number;
  pendingTtlMs: number;
  cycleLeaseMs: number;
}

export function gatewaySettingsFrom(gw: GatewaySection = {}): GatewaySettings {
  return {
    host: gw.host ?? DEFAULT_HOST,
    port: gw.port ?? DEFAULT_PORT,
    tokens: gw.tokens ?? [],
    allowedHosts: gw.allowedHosts ?? [],
    maxBodyBytes: gw.maxBodyBytes ?? 4 * 1024 * 1024,
    pendingTtlMs: gw.pendingTtlMs ?? 24 * 3600_000,
    cycleLeaseMs: gw.cycleLeaseMs ?? DEFAULT_CYCLE_LEASE_MS,
  };
}
