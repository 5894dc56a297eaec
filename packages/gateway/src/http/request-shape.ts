// Requests refused for their shape before any route runs: a NUL character in the path or the query
// (one store would take it and the other refuse it; both refuse it here), and a method a path does not
// take (405 with Allow, not 404: the path exists).
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { errorBody, notFoundRoute } from './errors.js';
import { nodeRequest } from './incoming.js';

/** 400 for a URL with a NUL character (raw or %00) in its path or query. */
export function noNulInUrl(): MiddlewareHandler {
  return async (c, next) => {
    // The raw request line on Node: building the web Request for c.req.url costs a share of a call.
    if (/%00|\u0000/i.test(nodeRequest(c)?.url ?? c.req.url))
      return c.json(errorBody('BAD_REQUEST', 'the URL must not contain NUL characters (%00); remove them'), 400);
    return next();
  };
}

/** The app's routes as patterns, by method; middleware (ALL) left out. */
function routePatterns(app: Hono<any>): { method: string; pattern: RegExp }[] {
  return app.routes
    .filter((r) => r.method !== 'ALL')
    .map((r) => ({
      method: r.method,
      pattern: new RegExp(
        `^${r.path
          .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
          .replace(/\/:[^/]+/g, '/[^/]+')
          .replace(/\*/g, '.*')}$`,
      ),
    }));
}

/** The not-found handler: 405 with the methods the path takes, when it takes any; else 404. */
export function notFoundOrWrongMethod(app: Hono<any>): (c: Context) => Response {
  let routes: ReturnType<typeof routePatterns> | undefined;
  return (c) => {
    routes ??= routePatterns(app);
    const allowed = [...new Set(routes.filter((r) => r.pattern.test(c.req.path)).map((r) => r.method))];
    if (!allowed.length || allowed.includes(c.req.method)) return notFoundRoute(c);
    const allow = allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed;
    return c.json(
      errorBody('BAD_REQUEST', `${c.req.method} is not allowed on ${c.req.path}; use ${allow.join(' or ')}`),
      405,
      { allow: allow.join(', ') },
    );
  };
}
