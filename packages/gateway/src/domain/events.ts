// GET /api/events: the stream this principal may read, resumed after Last-Event-ID.
import { sseStream } from '../events/sse.js';
import { EVENT_TYPES } from '../events/types.js';
import { agentScope, requireRole, type Principal } from '../http/auth.js';
import { ApiError } from '../http/errors.js';
import type { EventFilter } from '../store/types.js';
import type { Domain } from './context.js';

export interface EventQuery {
  runId?: string;
  agentIds?: string[];
  types?: string[];
  /** Last-Event-ID header or ?lastEventId=; absent means live events only. */
  after?: string;
}

export function openEventStream(d: Domain, p: Principal, q: EventQuery, signal: AbortSignal, heartbeatMs?: number): Response {
  requireRole(p, 'events');
  const unknown = q.types?.filter((t) => !EVENT_TYPES.includes(t as never));
  if (unknown?.length)
    throw new ApiError(400, 'BAD_REQUEST', `unknown event type${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; use any of ${EVENT_TYPES.join(', ')}`);
  let after: number | undefined;
  if (q.after !== undefined) {
    after = Number(q.after);
    if (!Number.isSafeInteger(after) || after < 0)
      throw new ApiError(400, 'BAD_REQUEST', `Last-Event-ID must be an event id (a non-negative integer), not "${q.after}"`);
  }
  const filter: EventFilter = {};
  if (q.runId !== undefined) filter.runId = q.runId;
  const agents = agentScope(p, q.agentIds);
  if (agents) filter.agentIds = agents;
  if (q.types?.length) filter.types = q.types;
  const body = sseStream({ store: d.store, recorder: d.recorder, filter, after, signal, ...(heartbeatMs ? { heartbeatMs } : {}) });
  return new Response(body, {
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' },
  });
}
