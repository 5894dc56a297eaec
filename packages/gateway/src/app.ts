// The HTTP API: the guards every request passes, then the routes of the table in @toolbelt/protocol,
// each registered by its key (http/route.ts) and handing its input to one domain function.
import { Hono } from 'hono';
import type { HostCheck } from '@toolbelt/core/net';
import { API_ROUTES } from '@toolbelt/protocol';
import type { DeclaredTool } from './config.js';
import type { Domain } from './domain/context.js';
import type { Auth, AuthEnv } from './http/auth.js';
import { handleError, tooLarge } from './http/errors.js';
import { noNulInUrl, notFoundOrWrongMethod } from './http/request-shape.js';
import { hostGuard } from './http/host-guard.js';
import { bodyLimit } from './http/incoming.js';
import type { Router } from './http/route.js';
import type { HttpCounter } from './metrics.js';
import { callRoutes, decisionRoutes, inboxRoutes } from './routes/calls.js';
import { publicRoutes, serviceRoutes } from './routes/service.js';
import { spaceRoutes } from './spaces/routes.js';
import { consoleApiRoutes, type McpStates } from './console/api.js';
import { consoleRoutes } from './console/static.js';

export interface AppOptions {
  auth: Auth;
  /** The Host and Origin every request must carry. */
  hosts: HostCheck;
  declared: ReadonlyMap<string, DeclaredTool>;
  maxBodyBytes: number;
  http: HttpCounter;
  metrics: () => Promise<string>;
  heartbeatMs?: number;
  /** The built console's directory, served at `/`; undefined: `/` says it is not built. */
  consoleDir: string | undefined;
  mcpServers?: McpStates;
}

/** What every request passes before its route: counted, its Host checked. */
function guard(app: Hono<AuthEnv>, o: AppOptions): void {
  app.onError(handleError);
  app.notFound(notFoundOrWrongMethod(app));
  app.use('*', async (c, next) => {
    await next();
    o.http.add(c.req.method, c.req.routePath, c.res.status);
  });
  // Every route, /healthz included: a page that rebinds its name to this machine learns nothing,
  // not even that a gateway runs here.
  app.use('*', hostGuard(o.hosts));
}

/** What every API request passes besides: no NUL in its URL, a known token, a body within the limit. */
function guardApi(app: Hono<AuthEnv>, o: AppOptions): void {
  app.use(API_ROUTES, noNulInUrl());
  app.use(API_ROUTES, o.auth.middleware());
  app.use('/metrics', o.auth.middleware());
  app.use(
    API_ROUTES,
    bodyLimit(o.maxBodyBytes, (c) => tooLarge(c, o.maxBodyBytes)),
  );
}

export function buildApp(d: Domain, o: AppOptions): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const r: Router = { app, maxBodyBytes: o.maxBodyBytes };
  guard(app, o);
  // Public (to a client with an allowed Host): liveness, the API description and the console page.
  publicRoutes(r, d);
  consoleRoutes(app, o.consoleDir);

  guardApi(app, o);
  serviceRoutes(r, d, o);
  callRoutes(r, d);
  decisionRoutes(r, d);
  inboxRoutes(r, d);
  spaceRoutes(r, d, o.heartbeatMs);
  consoleApiRoutes(r, d, o.auth, o.mcpServers);
  return app;
}
