// GET /api/events: the stream this principal may read, resumed after Last-Event-ID.
import { sseStream } from '../events/sse.js';
import { EVENT_TYPES } from '../events/types.js';
import { agentScope, requireRole, type Principal } from '../http/auth.js';
import { ApiError } from '../http/errors.js';
import type { EventFilter } from '../store/types.js';
import { visibleSpace } from '../spaces/access.js';
import { spaceEventName } from '../spaces/publish.js';
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
  const after = resumePoint(q.after);
  const filter: EventFilter = {};
  if (q.runId !== undefined) filter.runId = q.runId;
  const agents = agentScope(p, q.agentIds);
  if (agents) filter.agentIds = agents;
  if (q.types?.length) filter.types = q.types;
  return eventResponse(sseStream({ store: d.store, recorder: d.recorder, filter, after, signal, ...(heartbeatMs ? { heartbeatMs } : {}) }));
}

/** The events of one space, named as the gateway SDK names them (message, tool.started, ...). */
export async function openSpaceStream(d: Domain, p: Principal, spaceId: string, lastEventId: string | undefined, heartbeatMs?: number): Promise<Response> {
  await visibleSpace(d.store, p, spaceId);
  const after = resumePoint(lastEventId);
  const filter: EventFilter = { spaceId };
  return eventResponse(
    sseStream({ store: d.store, recorder: d.recorder, filter, after, signal: d.shutdown, name: spaceEventName, ...(heartbeatMs ? { heartbeatMs } : {}) }),
  );
}

function resumePoint(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const after = Number(raw);
  if (!Number.isSafeInteger(after) || after < 0)
    throw new ApiError(400, 'BAD_REQUEST', `Last-Event-ID must be an event id (a non-negative integer), not "${raw}"`);
  return after;
}

function eventResponse(body: ReadableStream<Uint8Array>): Response {
  return new Response(body, {
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' },
  });
}
