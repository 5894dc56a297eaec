// Registering a handler by its key in the route table of @toolbelt/protocol: the table gives the
// method, the path, the role it needs and the body's schema; this checks the role, the path's ids and
// the body before the handler runs, and sends what the handler answers as JSON with the route's
// status.
import type { Context, Hono } from 'hono';
import {
  ROUTE_SCHEMAS,
  ROUTES,
  type RouteAnswer,
  type RouteBody,
  type RouteKey,
  type RouteParams,
  type RouteSchemas,
  type RouteSpec,
  type Role as TableRole,
} from '@toolbelt/protocol';
import { hasRole, type AuthEnv, type Principal, type Role } from './auth.js';
import { readBody } from './body.js';
import { ApiError } from './errors.js';

export interface RouteInput<K extends RouteKey> {
  params: RouteParams<K>;
  body: RouteBody<K>;
}

/** Answers the route's JSON answer (sent with its status), or a Response of its own. */
export type RouteHandler<K extends RouteKey> = (
  c: Context<AuthEnv>,
  input: RouteInput<K>,
) => RouteAnswer<K> | Response | Promise<RouteAnswer<K> | Response>;

/** Where the routes are registered, and the largest body they read. */
export interface Router {
  app: Hono<AuthEnv>;
  maxBodyBytes: number;
}

// The roles the table names are the roles a token can have: one added on one side only fails to compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
const rolesMatchTheTable: Holds<Same<Role, TableRole>> = true;
void rolesMatchTheTable;

/** Path parameters: ids of runs, agents, calls, spaces and cycles. */
export function validId(value: string): boolean {
  return value.length > 0 && value.length <= 200 && !/[\u0000-\u001f]/.test(value);
}

/** Refuses a token that has none of the roles the route needs (admin has them all). */
export function requireAccess(p: Principal, role: RouteSpec['role']): void {
  if (role === 'public' || role === 'token') return;
  const roles = typeof role === 'string' ? [role] : role;
  if (roles.some((r) => hasRole(p, r))) return;
  const needed = roles.map((r) => `"${r}"`).join(' or ');
  throw new ApiError(
    403,
    'FORBIDDEN',
    `this token lacks the ${needed} role needed here (it has: ${[...p.roles].join(', ') || 'none'})`,
  );
}

function params<K extends RouteKey>(c: Context<AuthEnv>, key: K): RouteParams<K> {
  const out: Record<string, string> = {};
  for (const [, name] of ROUTES[key].path.matchAll(/:(\w+)/g)) {
    const value = c.req.param(name) ?? '';
    if (!validId(value))
      throw new ApiError(400, 'BAD_REQUEST', `${name} must be 1-200 characters without control characters`);
    out[name] = value;
  }
  return out as RouteParams<K>;
}

export function route<K extends RouteKey>(r: Router, key: K, handler: RouteHandler<K>): void {
  const spec: RouteSpec = ROUTES[key];
  const schemas: RouteSchemas = ROUTE_SCHEMAS[key];
  const method = spec.method.toLowerCase() as 'get' | 'post' | 'delete';
  r.app[method](spec.path, async (c) => {
    if (spec.role !== 'public') requireAccess(c.var.principal, spec.role);
    const input = {
      params: params(c, key),
      body: (schemas.body ? await readBody(c, schemas.body, r.maxBodyBytes) : undefined) as RouteBody<K>,
    };
    const answer = await handler(c, input);
    if (answer instanceof Response) return answer;
    return c.json(answer as object, spec.status ?? 200);
  });
}
