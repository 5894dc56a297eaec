// The HTTP API as a list of routes; each one reads its input and hands it to one domain function.
import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import type { HostCheck } from '@toolbelt/core';
import type { ExecutionList, HealthAnswer } from '@toolbelt/protocol';
import type { DeclaredTool } from './config.js';
import type { Domain } from './domain/context.js';
import { decide } from './domain/approvals.js';
import { answer } from './domain/questions.js';
import { callTool, listCalls, visibleCall } from './domain/calls.js';
import { openEventStream } from './domain/events.js';
import { ackInbox, readInbox } from './domain/inbox.js';
import { submitResult } from './domain/results.js';
import { listTools } from './domain/tools.js';
import { requireRole, type Auth, type AuthEnv } from './http/auth.js';
import { intParam, listParam, readBody as readBodyOf } from './http/body.js';
import { ApiError, handleError, tooLarge } from './http/errors.js';
import { noNulInUrl, notFoundOrWrongMethod } from './http/request-shape.js';
import { within } from './store/unavailable.js';
import { hostGuard } from './http/host-guard.js';
import { bodyLimit, header } from './http/incoming.js';
import { clientSignal } from './http/signal.js';
import { ackBody, answerBody, approveBody, callBody, rejectBody, resultBody, validId } from './http/schemas.js';
import type { HttpCounter } from './metrics.js';
import { spaceRoutes } from './spaces/routes.js';
import { consoleApiRoutes, type McpStates } from './console/api.js';
import { consoleRoutes } from './console/static.js';
import { jsonOfResult } from './json.js';
import { OPENAPI } from './openapi.js';
import { CALL_STATUSES, type CallStatus } from './store/types.js';

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

function param(value: string, what: string): string {
  if (!validId(value))
    throw new ApiError(400, 'BAD_REQUEST', `${what} must be 1-200 characters without control characters`);
  return value;
}

function statuses(raw: string[] | undefined): CallStatus[] | undefined {
  const bad = raw?.filter((s) => !CALL_STATUSES.includes(s as CallStatus));
  if (bad?.length)
    throw new ApiError(400, 'BAD_REQUEST', `unknown status ${bad.join(', ')}; use any of ${CALL_STATUSES.join(', ')}`);
  return raw as CallStatus[] | undefined;
}

/** /healthz answers within this, whatever the database does. */
const HEALTH_MS = 1000;

/** Reads a request body against its schema, within the gateway's size limit. */
type ReadBody = <S extends z.ZodType>(c: Context, schema: S) => Promise<z.output<S>>;

export function buildApp(d: Domain, o: AppOptions): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const readBody: ReadBody = (c, schema) => readBodyOf(c, schema, o.maxBodyBytes);
  app.onError(handleError);
  app.notFound(notFoundOrWrongMethod(app));
  app.use('*', async (c, next) => {
    await next();
    o.http.add(c.req.method, c.req.routePath, c.res.status);
  });
  // Every route, /healthz included: a page that rebinds its name to this machine learns nothing,
  // not even that a gateway runs here.
  app.use('*', hostGuard(o.hosts));

  // Public (to a client with an allowed Host): liveness and the API description.
  app.get('/healthz', async (c) => {
    // A database that does not answer is unhealthy within a second, not at the driver's timeout.
    const probe = d.store.health?.() ?? Promise.resolve({ ok: true });
    const health = await within(probe, HEALTH_MS, 'the health check').catch((err: Error) => ({
      ok: false,
      error: err.message,
    }));
    return c.json(health satisfies HealthAnswer, health.ok ? 200 : 503);
  });
  app.get('/api/openapi.json', (c) => c.json(OPENAPI));
  consoleRoutes(app, o.consoleDir);

  app.use('/api/*', noNulInUrl());
  app.use('/api/*', o.auth.middleware());
  app.use('/metrics', o.auth.middleware());
  app.use(
    '/api/*',
    bodyLimit(o.maxBodyBytes, (c) => tooLarge(c, o.maxBodyBytes)),
  );

  app.get('/metrics', async (c) => {
    requireRole(c.var.principal, 'admin');
    return c.text(await o.metrics(), 200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
  });
  app.get('/api/tools', (c) => c.json(listTools(d, o.declared, c.req.query('format'))));
  callRoutes(app, d, readBody);
  decisionRoutes(app, d, readBody);
  inboxRoutes(app, d, readBody);
  spaceRoutes(app, d, readBody, o.heartbeatMs);
  consoleApiRoutes(app, d, o.auth, o.mcpServers);
  app.get('/api/events', (c) => {
    const after = header(c, 'last-event-id') ?? c.req.query('lastEventId');
    const q = {
      ...(c.req.query('runId') ? { runId: c.req.query('runId') } : {}),
      agentIds: listParam(c, 'agentId'),
      types: listParam(c, 'types'),
      after,
    };
    return openEventStream(d, c.var.principal, q, d.shutdown, o.heartbeatMs);
  });
  app.get('/api/executions', async (c) => {
    requireRole(c.var.principal, 'admin');
    const q = c.req.query();
    const filter = {
      limit: intParam(c, 'limit', 100, 1000) || 100,
      ...(q.tool ? { tool: q.tool } : {}),
      ...(q.status ? { status: q.status } : {}),
      ...(q.agentId ? { agentId: q.agentId } : {}),
      ...(q.runId ? { runId: q.runId } : {}),
      ...(q.since ? { since: q.since } : {}),
      ...(q.before ? { before: intParam(c, 'before', 0, Number.MAX_SAFE_INTEGER) } : {}),
    };
    return c.json((await d.store.listExecutions(filter)) satisfies ExecutionList);
  });
  return app;
}

/** Calling tools, submitting results from outside, and reading calls back. */
function callRoutes(app: Hono<AuthEnv>, d: Domain, readBody: ReadBody): void {
  app.post('/api/runs/:runId/tool-calls', async (c) => {
    const runId = param(c.req.param('runId'), 'runId');
    const body = await readBody(c, callBody);
    const { status, result } = await callTool(d, c.var.principal, runId, body, clientSignal(c));
    // The store has serialized this result already; send that text. (A fresh headers object: the
    // adapter adds Content-Length to it.)
    return c.body(jsonOfResult(result), status, { 'content-type': 'application/json' });
  });

  app.post('/api/runs/:runId/tool-results', async (c) => {
    const runId = param(c.req.param('runId'), 'runId');
    const body = await readBody(c, resultBody);
    const submission = body.error !== undefined ? { error: body.error } : { result: body.result };
    return c.json(await submitResult(d, c.var.principal, runId, body.callId, submission, body.spaceId));
  });

  app.get('/api/tool-calls', async (c) => {
    const q = c.req.query();
    const filter = {
      limit: intParam(c, 'limit', 50, 500) || 50,
      ...(q.runId ? { runId: q.runId } : {}),
      ...(q.agentId ? { agentId: q.agentId } : {}),
      ...(q.tool ? { tool: q.tool } : {}),
      ...(q.before ? { before: intParam(c, 'before', 0, Number.MAX_SAFE_INTEGER) } : {}),
    };
    const s = statuses(listParam(c, 'status'));
    return c.json(await listCalls(d, c.var.principal, s ? { ...filter, statuses: s } : filter));
  });

  app.get('/api/tool-calls/:callId', async (c) => c.json(await visibleCall(d, c.var.principal, c.req.param('callId'))));
}

/** A person's approve or reject for a call awaiting approval. */
function decisionRoutes(app: Hono<AuthEnv>, d: Domain, readBody: ReadBody): void {
  app.post('/api/tool-calls/:callId/approve', async (c) => {
    requireRole(c.var.principal, 'approve');
    const body = await readBody(c, approveBody);
    const call = await visibleCall(d, c.var.principal, c.req.param('callId'));
    return c.json(
      await decide(d.store, call, { outcome: 'approve', scope: body.scope ?? 'once', by: c.var.principal.name }),
    );
  });

  app.post('/api/tool-calls/:callId/reject', async (c) => {
    requireRole(c.var.principal, 'approve');
    const body = await readBody(c, rejectBody);
    const call = await visibleCall(d, c.var.principal, c.req.param('callId'));
    const decision = body.message
      ? { outcome: 'reject' as const, message: body.message, by: c.var.principal.name }
      : { outcome: 'reject' as const, by: c.var.principal.name };
    return c.json(await decide(d.store, call, decision));
  });

  app.post('/api/tool-calls/:callId/answer', async (c) => {
    requireRole(c.var.principal, 'approve');
    const body = await readBody(c, answerBody);
    const call = await visibleCall(d, c.var.principal, c.req.param('callId'));
    return c.json(await answer(d.store, d.recorder, call, { ...body, by: c.var.principal.name }));
  });
}

function inboxRoutes(app: Hono<AuthEnv>, d: Domain, readBody: ReadBody): void {
  app.get('/api/agents/:agentId/inbox', async (c) => {
    const agentId = param(c.req.param('agentId'), 'agentId');
    const includeAcked = ['1', 'true'].includes(c.req.query('includeAcked') ?? '');
    const after = intParam(c, 'after', 0, Number.MAX_SAFE_INTEGER);
    return c.json(
      await readInbox(d, c.var.principal, agentId, {
        after,
        limit: intParam(c, 'limit', 100, 1000) || 100,
        includeAcked,
      }),
    );
  });

  app.post('/api/agents/:agentId/inbox/ack', async (c) => {
    const agentId = param(c.req.param('agentId'), 'agentId');
    const body = await readBody(c, ackBody);
    return c.json(await ackInbox(d, c.var.principal, agentId, body.ids));
  });
}
