// Bearer tokens scoped to agents and roles. With no tokens configured the gateway is open, which
// is only allowed on a loopback address (see server.ts). Only the tokens' SHA-256 digests are kept:
// nothing in this process's memory or store can be replayed as a token.
import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { ApiError } from './errors.js';
import { header } from './incoming.js';
import { ROLES, type Role } from '../config.js';
import { isEventStream } from './streams.js';
import { AuthConfigError, digestOf, tokenDigest, type TokenSource } from './tokens.js';

export { AuthConfigError, hashToken } from './tokens.js';

export { ROLES, type Role } from '../config.js';

export interface Principal {
  name: string;
  roles: ReadonlySet<Role>;
  /** The agents this token may act for and see; undefined means every agent. */
  agents?: ReadonlySet<string>;
}

/** One entry of gateway.tokens: the token given exactly one way (see tokens.ts), and what it may do. */
export interface TokenSpec extends TokenSource {
  agents?: string[];
  roles: Role[];
  name?: string;
}

/** Set in the environment, this is an admin token (for every agent). */
export const TOKEN_ENV = 'TOOLBELT_GATEWAY_TOKEN';
/** Set in the environment, the path of a file holding an admin token, so it need not sit in the environment. */
export const TOKEN_FILE_ENV = 'TOOLBELT_GATEWAY_TOKEN_FILE';

export type AuthEnv = { Variables: { principal: Principal } };

const OPEN: Principal = { name: 'local', roles: new Set(ROLES) };

interface Known {
  digest: Buffer;
  principal: Principal;
  label: string;
}

export class Auth {
  private readonly known: Known[] = [];

  constructor(specs: readonly TokenSpec[] = [], env: Record<string, string | undefined> = {}) {
    const all: TokenSpec[] = [...specs];
    if (env[TOKEN_ENV]) all.push({ token: env[TOKEN_ENV], roles: ['admin'], name: TOKEN_ENV });
    if (env[TOKEN_FILE_ENV]) all.push({ tokenFile: env[TOKEN_FILE_ENV], roles: ['admin'], name: TOKEN_FILE_ENV });
    all.forEach((spec, i) => {
      const label = spec.name ?? `gateway.tokens[${i}]`;
      if (!Array.isArray(spec.roles) || !spec.roles.length)
        throw new AuthConfigError(`${label}: give the token at least one role of ${ROLES.join(', ')}`);
      const unknown = spec.roles.filter((r) => !ROLES.includes(r));
      if (unknown.length)
        throw new AuthConfigError(`${label}: unknown role ${unknown.join(', ')}; use any of ${ROLES.join(', ')}`);
      const digest = tokenDigest(spec, env, label);
      const twin = this.known.find((k) => k.digest.equals(digest));
      if (twin)
        throw new AuthConfigError(
          `${label}: the same token as ${twin.label}; give each entry its own token, or merge their roles`,
        );
      const principal: Principal = { name: spec.name ?? `token #${i + 1}`, roles: new Set(spec.roles) };
      if (spec.agents) principal.agents = new Set(spec.agents);
      this.known.push({ digest, principal, label });
    });
  }

  get enabled(): boolean {
    return this.known.length > 0;
  }

  get count(): number {
    return this.known.length;
  }

  authenticate(header: string | undefined): Principal {
    if (!this.enabled) return OPEN;
    if (!header)
      throw new ApiError(401, 'UNAUTHORIZED', 'this gateway needs a token: send "Authorization: Bearer <token>"');
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw new ApiError(401, 'UNAUTHORIZED', 'the Authorization header must be "Bearer <token>"');
    const given = digestOf(m[1]);
    // Every known digest is compared, each in constant time: how long this takes tells nothing
    // about which token matched or how close a guess came.
    let found: Principal | undefined;
    for (const k of this.known) if (timingSafeEqual(given, k.digest) && !found) found = k.principal;
    if (!found)
      throw new ApiError(401, 'UNAUTHORIZED', 'unknown token; check the token the gateway was configured with');
    return found;
  }

  middleware(): MiddlewareHandler<AuthEnv> {
    return async (c, next) => {
      // EventSource in browsers cannot send headers: accept ?access_token= for the event streams only.
      const stream = isEventStream(c.req.path);
      const query = stream ? c.req.query('access_token') : undefined;
      c.set('principal', this.authenticate(header(c, 'authorization') ?? (query ? `Bearer ${query}` : undefined)));
      await next();
    };
  }
}

export function hasRole(p: Principal, role: Role): boolean {
  return p.roles.has('admin') || p.roles.has(role);
}

export function requireRole(p: Principal, role: Role): void {
  if (!hasRole(p, role))
    throw new ApiError(
      403,
      'FORBIDDEN',
      `this token lacks the "${role}" role needed here (it has: ${[...p.roles].join(', ')})`,
    );
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
