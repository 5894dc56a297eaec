// The routes of spaces, agents' notes, prompts and think cycles; each hands its input to one domain function.
import type { NoteKind } from '@toolbelt/protocol';
import { agentPrompt } from '../domain/agent-prompt.js';
import { finishCycle, heartbeatCycle, takeCycle } from '../domain/cycles.js';
import type { Domain } from '../domain/context.js';
import { openSpaceStream } from '../domain/events.js';
import {
  addMember,
  createSpace,
  listMembers,
  listMessages,
  listSpaces,
  postMessage,
  readNotes,
  removeMember,
} from '../domain/spaces.js';
import { intParam } from '../http/body.js';
import { header } from '../http/incoming.js';
import { route, type Router } from '../http/route.js';
import { clientSignal } from '../http/signal.js';

/** The longest a think cycle request waits for a first message. */
const MAX_WAIT_MS = 60_000;

const NOTES = { goals: 'agentGoals', memories: 'agentMemories', plans: 'agentPlans' } as const;

export function spaceRoutes(r: Router, d: Domain, heartbeatMs?: number): void {
  route(r, 'createSpace', (c, { body }) => createSpace(d, c.var.principal, body));
  route(r, 'listSpaces', (c) => listSpaces(d, c.var.principal));
  route(r, 'listMembers', (c, { params }) => listMembers(d, c.var.principal, params.spaceId));
  route(r, 'addMember', (c, { params, body }) => addMember(d, c.var.principal, params.spaceId, body));
  route(r, 'removeMember', (c, { params }) => removeMember(d, c.var.principal, params.spaceId, params.memberId));
  route(r, 'postMessage', (c, { params, body }) => postMessage(d, c.var.principal, params.spaceId, body));
  route(r, 'listMessages', (c, { params }) => {
    const offset = intParam(c, 'offset', 0, Number.MAX_SAFE_INTEGER);
    const limit = intParam(c, 'limit', 50, 500) || 50;
    return listMessages(d, c.var.principal, params.spaceId, offset, limit);
  });
  route(r, 'spaceEvents', (c, { params }) => {
    const after = header(c, 'last-event-id') ?? c.req.query('lastEventId');
    return openSpaceStream(d, c.var.principal, params.spaceId, after, heartbeatMs);
  });
  agentRoutes(r, d);
}

function agentRoutes(r: Router, d: Domain): void {
  for (const [kind, key] of Object.entries(NOTES) as [NoteKind, (typeof NOTES)[NoteKind]][])
    route(r, key, (c, { params }) => readNotes(d, c.var.principal, params.agentId, kind));
  route(r, 'agentPrompt', (c, { params }) => agentPrompt(d, c.var.principal, params.agentId));
  route(r, 'takeCycle', (c, { params }) => {
    const q = { waitMs: intParam(c, 'wait', 0, MAX_WAIT_MS), limit: intParam(c, 'limit', 100, 1000) || 100 };
    return takeCycle(d, d.waiters, c.var.principal, params.agentId, q, clientSignal(c));
  });
  route(r, 'finishCycle', (c, { params }) => finishCycle(d, c.var.principal, params.agentId, params.cycleId));
  route(r, 'heartbeatCycle', (c, { params }) => heartbeatCycle(d, c.var.principal, params.agentId, params.cycleId));
}
