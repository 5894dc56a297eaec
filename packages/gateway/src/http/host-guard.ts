// Host and Origin checked on every route, before authentication, against DNS rebinding: the same
// check (HostCheck in core) as `toolbelt mcp --http`.
import type { HostCheck } from '@toolbelt/core/net';
import type { MiddlewareHandler } from 'hono';
import { ApiError } from './errors.js';
import { header, nodeRequest } from './incoming.js';

export function hostGuard(hosts: HostCheck): MiddlewareHandler {
  return async (c, next) => {
    // On Node the Host header is what the client sent; a Request handed to app.fetch directly
    // carries its host in the URL instead.
    const host = header(c, 'host') ?? (nodeRequest(c) ? undefined : new URL(c.req.url).host);
    const refused = hosts.check(host, header(c, 'origin'));
    if (refused) throw new ApiError(403, 'FORBIDDEN', refused.message);
    await next();
  };
}
