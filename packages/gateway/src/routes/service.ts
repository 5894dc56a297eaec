// The gateway's own routes: liveness, the API description, metrics, the tool list, the event stream
// and the execution log.
import type { ExecutionList, HealthAnswer } from '@toolbelt/protocol';
import type { DeclaredTool } from '../config.js';
import type { Domain } from '../domain/context.js';
import { openEventStream } from '../domain/events.js';
import { listTools } from '../domain/tools.js';
import { intParam, listParam } from '../http/body.js';
import { header } from '../http/incoming.js';
import { route, type Router } from '../http/route.js';
import { OPENAPI } from '../openapi.js';
import { within } from '../store/index.js';

/** /healthz answers within this, whatever the database does. */
const HEALTH_MS = 1000;

/** Public (to a client with an allowed Host): liveness and the API description. */
export function publicRoutes(r: Router, d: Domain): void {
  route(r, 'health', async (c) => {
    // A database that does not answer is unhealthy within a second, not at the driver's timeout.
    const probe = d.store.health?.() ?? Promise.resolve({ ok: true });
    const health = await within(probe, HEALTH_MS, 'the health check').catch((err: Error) => ({
      ok: false,
      error: err.message,
    }));
    return c.json(health satisfies HealthAnswer, health.ok ? 200 : 503);
  });
  route(r, 'openapi', () => OPENAPI);
}

export interface ServiceOptions {
  declared: ReadonlyMap<string, DeclaredTool>;
  metrics: () => Promise<string>;
  heartbeatMs?: number;
}

export function serviceRoutes(r: Router, d: Domain, o: ServiceOptions): void {
  route(r, 'prometheus', async (c) =>
    c.text(await o.metrics(), 200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }),
  );
  route(r, 'listTools', (c) => listTools(d, o.declared, c.req.query('format')));
  route(r, 'events', (c) => {
    const after = header(c, 'last-event-id') ?? c.req.query('lastEventId');
    const q = {
      ...(c.req.query('runId') ? { runId: c.req.query('runId') } : {}),
      agentIds: listParam(c, 'agentId'),
      types: listParam(c, 'types'),
      after,
    };
    return openEventStream(d, c.var.principal, q, d.shutdown, o.heartbeatMs);
  });
  route(r, 'executions', async (c) => {
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
    return (await d.store.listExecutions(filter)) satisfies ExecutionList;
  });
}
