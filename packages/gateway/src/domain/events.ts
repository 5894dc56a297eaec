// GET /api/events: the stream this principal may read, resumed after Last-Event-ID.
import { sseStream } from '../events/sse.js';
import { EVENT_TYPES } from '../events/types.js';
import { agentScope, requireRole, type Principal } from '../http/auth.js';
import { ApiError } from '../http/errors.js';
import { APPROVER_EVENTS, approverOnly, forApprover } from '../http/scope.js';
import type { EventFilter } from '../store/index.js';
import { seesSpacesAsAgent, visibleSpace } from '../spaces/access.js';
import { spaceEventName } from '../spaces/publish.js';
import type { Domain } from './context.js';

export interface EventQuery {
  runId?: string;
  agentIds?: string[];
  types?: string[];
  /** Last-Event-ID header or ?lastEventId=; absent means live events only. */
  after?: string;
}

export function openEventStream(
  d: Domain,
  p: Principal,
  q: EventQuery,
  signal: AbortSignal,
  heartbeatMs?: number,
): Response {
  requireRole(p, 'events');
  const unknown = q.types?.filter((t) => !EVENT_TYPES.includes(t as never));
  if (unknown?.length)
    throw new ApiError(
      400,
      'BAD_REQUEST',
      `unknown event type${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; use any of ${EVENT_TYPES.join(', ')}`,
    );
  const after = resumePoint(q.after);
  const filter: EventFilter = {};
  if (q.runId !== undefined) filter.runId = q.runId;
  const agents = agentScope(p, q.agentIds);
  if (agents) filter.agentIds = agents;
  const types = streamedTypes(p, q.types);
  if (types) filter.types = types;
  const shape = approverOnly(p) ? { shape: forApprover } : {};
  return eventResponse(
    sseStream({
      store: d.store,
      recorder: d.recorder,
      filter,
      after,
      signal,
      ...shape,
      ...(heartbeatMs ? { heartbeatMs } : {}),
    }),
  );
}

const SPACE_EVENTS: readonly string[] = ['space.message', 'space.tool'];

/**
 * The types this principal may stream, of those asked (undefined: every type). A space's events
 * reach only tokens that see spaces as their agents (or admin): others read a space they are a
 * member of on its own stream. An approver streams what it approves (APPROVER_EVENTS).
 */
function streamedTypes(p: Principal, asked: string[] | undefined): string[] | undefined {
  const allowed = approverOnly(p)
    ? APPROVER_EVENTS
    : seesSpacesAsAgent(p)
      ? undefined
      : EVENT_TYPES.filter((t) => !SPACE_EVENTS.includes(t));
  if (!allowed) return asked?.length ? asked : undefined;
  if (!asked?.length) return [...allowed];
  const refused = asked.filter((t) => !allowed.includes(t as never));
  if (refused.length)
    throw new ApiError(
      403,
      'FORBIDDEN',
      `this token may not stream ${refused.join(', ')}; it streams ${allowed.join(', ')}` +
        (refused.some((t) => SPACE_EVENTS.includes(t))
          ? ' (a member reads a space on GET /api/spaces/:spaceId/events)'
          : ''),
    );
  return asked;
}

/** The events of one space, named as the gateway SDK names them (message, tool.started, ...). */
export async function openSpaceStream(
  d: Domain,
  p: Principal,
  spaceId: string,
  lastEventId: string | undefined,
  heartbeatMs?: number,
): Promise<Response> {
  await visibleSpace(d.store, p, spaceId);
  const after = resumePoint(lastEventId);
  const filter: EventFilter = { spaceId };
  return eventResponse(
    sseStream({
      store: d.store,
      recorder: d.recorder,
      filter,
      after,
      signal: d.shutdown,
      name: spaceEventName,
      ...(heartbeatMs ? { heartbeatMs } : {}),
    }),
  );
}

/** Where a stream resumes: after the given id, or from now when none is given (an empty Last-Event-ID included). */
function resumePoint(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const after = Number(raw);
  if (!Number.isSafeInteger(after) || after < 0)
    throw new ApiError(400, 'BAD_REQUEST', `Last-Event-ID must be an event id (a non-negative integer), not "${raw}"`);
  return after;
}

function eventResponse(body: ReadableStream<Uint8Array>): Response {
  return new Response(body, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    },
  });
}
