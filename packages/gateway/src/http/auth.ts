// Bearer tokens scoped to agents and roles. With no tokens configured the gateway is open, which
// is only allowed on a loopback address (see server.ts).
import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { ApiError } from './errors.js';
import { header } from './incoming.js';

export type Role = 'call' | 'submit' | 'approve' | 'events' | 'admin';
export const ROLES: readonly Role[] = ['call', 'submit', 'approve', 'events', 'admin'];

export interface Principal {
  name: string;
  roles: ReadonlySet<Role>;
  /** The agents this token may act for and see; undefined means every agent. */
  agents?: ReadonlySet<string>;
}

export interface TokenSpec {
  token?: string;
  /** Name of an environment variable holding the token. */
  tokenEnv?: string;
  agents?: string[];
  roles: Role[];
  name?: string;
}

/** Set in the environment, this is an admin token (for every agent). */
export const TOKEN_ENV = 'TOOLBELT_GATEWAY_TOKEN';
const MIN_LENGTH = 16;

export type AuthEnv = { Variables: { principal: Principal } };

export class AuthConfigError extends Error {}

const digest = (token: string) => createHash('sha256').update(token).digest('hex');
const OPEN: Principal = { name: 'local', roles: new Set(ROLES) };

export class Auth {
  // Keyed by the token's hash: a lookup leaks nothing about how much of a guess was right.
  private readonly byDigest = new Map<string, Principal>();
  /** Headers seen recently, so a busy client does not pay a hash per request. */
  private readonly recent = new Map<string, Principal>();

  constructor(specs: readonly TokenSpec[] = [], env: Record<string, string | undefined> = {}) {
    const all = [...specs];
    if (env[TOKEN_ENV]) all.push({ token: env[TOKEN_ENV], roles: ['admin'], name: TOKEN_ENV });
    all.forEach((spec, i) => {
      const label = spec.name ?? `gateway.tokens[${i}]`;
      const token = spec.token ?? (spec.tokenEnv ? env[spec.tokenEnv] : undefined);
      if (!token) throw new AuthConfigError(`${label}: no token; set "token", or set the environment variable ${spec.tokenEnv ?? '(tokenEnv)'}`);
      if (token.length < MIN_LENGTH) throw new AuthConfigError(`${label}: the token is shorter than ${MIN_LENGTH} characters; use a long random one (openssl rand -hex 24)`);
      if (!spec.roles.length) throw new AuthConfigError(`${label}: give the token at least one role of ${ROLES.join(', ')}`);
      const p: Principal = { name: spec.name ?? `token #${i + 1}`, roles: new Set(spec.roles) };
      if (spec.agents) p.agents = new Set(spec.agents);
      this.byDigest.set(digest(token), p);
    });
  }

  get enabled(): boolean {
    return this.byDigest.size > 0;
  }

  get count(): number {
    return this.byDigest.size;
  }

  authenticate(header: string | undefined): Principal {
    if (!this.enabled) return OPEN;
    if (!header) throw new ApiError(401, 'UNAUTHORIZED', 'this gateway needs a token: send "Authorization: Bearer <token>"');
    const known = this.recent.get(header);
    if (known) return known;
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw new ApiError(401, 'UNAUTHORIZED', 'the Authorization header must be "Bearer <token>"');
    const p = this.byDigest.get(digest(m[1]));
    if (!p) throw new ApiError(401, 'UNAUTHORIZED', 'unknown token; check the token the gateway was configured with');
    if (this.recent.size >= 256) this.recent.clear();
    this.recent.set(header, p);
    return p;
  }

  middleware(): MiddlewareHandler<AuthEnv> {
    return async (c, next) => {
      // EventSource in browsers cannot send headers: accept ?access_token= for the event stream only.
      const query = c.req.path === '/api/events' ? c.req.query('access_token') : undefined;
      c.set('principal', this.authenticate(header(c, 'authorization') ?? (query ? `Bearer ${query}` : undefined)));
      await next();
    };
  }
}

export function hasRole(p: Principal, role: Role): boolean {
  return p.roles.has('admin') || p.roles.has(role);
}

export function requireRole(p: Principal, role: Role): void {
  if (!hasRole(p, role)) throw new ApiError(403, 'FORBIDDEN', `this token lacks the "${role}" role needed here (it has: ${[...p.roles].join(', ')})`);
}

export function canActFor(p: Principal, agentId: string): boolean {
  return !p.agents || p.agents.has(agentId);
}

/** Refuses acting for an agent outside the token's scope. */
export function requireAgent(p: Principal, agentId: string): void {
  if (!canActFor(p, agentId)) throw new ApiError(403, 'FORBIDDEN', `this token may not act for agent "${agentId}"`);
}

/** The agent filter a listing must apply for this token. */
export function agentScope(p: Principal, asked?: readonly string[]): string[] | undefined {
  if (!p.agents) return asked ? [...asked] : undefined;
  return asked ? asked.filter((a) => p.agents!.has(a)) : [...p.agents];
}
