// The route table of the gateway's HTTP API: every route once, by key. The gateway registers its
// handlers by these keys, its OpenAPI document is generated from them, and the client SDK, the
// console and the Emacs client's test read their paths here. Plain data: no schema library and
// nothing of Node, so the console's bundle stays small (the Zod schemas per route are in
// ../schemas/routes.ts, keyed the same).
import { AGENT_ROUTES } from './agents.js';
import { CALL_ROUTES } from './calls.js';
import { CONSOLE_ROUTES } from './console.js';
import { SERVICE_ROUTES } from './service.js';
import { SPACE_ROUTES } from './spaces.js';
import type { AnswerOf, BodyOf, PathParams, QueryOf, RouteSpec } from './spec.js';

export const ROUTES = {
  ...SERVICE_ROUTES,
  ...CALL_ROUTES,
  ...AGENT_ROUTES,
  ...SPACE_ROUTES,
  ...CONSOLE_ROUTES,
} as const satisfies Record<string, RouteSpec>;

/** Every route under this prefix takes a token (where the gateway asks for one). */
export const API_ROUTES = '/api/*';

export type Routes = typeof ROUTES;
export type RouteKey = keyof Routes;

export type RouteParams<K extends RouteKey> = PathParams<Routes[K]['path']>;
export type RouteQuery<K extends RouteKey> = QueryOf<Routes[K]>;
export type RouteBody<K extends RouteKey> = BodyOf<Routes[K]>;
export type RouteAnswer<K extends RouteKey> = AnswerOf<Routes[K]>;

type Keys<T> = keyof T;
/** What a request to route K carries: params when its path has any, body when it reads one. */
export type RouteArgs<K extends RouteKey> = ([Keys<RouteParams<K>>] extends [never]
  ? { params?: undefined }
  : { params: RouteParams<K> }) & { query?: RouteQuery<K> } & ([RouteBody<K>] extends [never]
    ? { body?: undefined }
    : { body: RouteBody<K> });

/** The path of route K with its parameters filled in (each encoded). */
export function routePath<K extends RouteKey>(key: K, params?: RouteParams<K>): string {
  const values = (params ?? {}) as Record<string, string>;
  return ROUTES[key].path.replace(/:(\w+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new TypeError(`${key} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

/** The query string (with its `?`, or empty): lists comma-joined, false, undefined and '' left out. */
export function queryString(query: Readonly<Record<string, unknown>> = {}): string {
  const q = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === '' || value === false) continue;
    q.set(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** Path and query of a request to route K. */
export function routeUrl<K extends RouteKey>(key: K, args: { params?: RouteParams<K>; query?: RouteQuery<K> }): string {
  return routePath(key, args.params) + queryString(args.query);
}

export { FORMATS } from './service.js';
export { io, type Io, type Method, type QueryParam, type Role, type RouteSpec } from './spec.js';
export type { AnswerOf, BodyOf, PathParams, QueryOf } from './spec.js';
