// Think cycles: an agent takes its unread inbox as one batch, works through it, and says it is done.
// A message is held by one cycle at a time (the store marks it in the same step), for the cycle's
// lease: a cycle not done by then (the agent died, the answer was lost) offers its messages again to
// the next cycle. At least once; a heartbeat extends the lease of a long cycle.
import { randomBytes } from 'node:crypto';
import type { CycleAnswer, CycleDoneAnswer, CycleHeartbeatAnswer } from '@toolbelt/protocol';
import { requireAgent, requireRole, type Principal } from '../http/auth.js';
import { ApiError } from '../http/errors.js';
import type { Waiters } from '../waiters.js';
import type { Domain } from './context.js';

export interface CycleQuery {
  /** Wait up to this long for a first message when the inbox is empty. */
  waitMs: number;
  limit: number;
}

export async function takeCycle(
  d: Domain,
  waiters: Waiters,
  p: Principal,
  agentId: string,
  q: CycleQuery,
  signal: AbortSignal,
): Promise<CycleAnswer> {
  requireRole(p, 'call');
  requireAgent(p, agentId);
  const end = Date.now() + q.waitMs;
  for (;;) {
    // Park before looking, so a message stored in between still wakes us.
    const parked = waiters.park(`inbox.added:${agentId}`, end - Date.now(), signal);
    const cycleId = `cy_${randomBytes(9).toString('base64url')}`;
    const now = Date.now();
    const leaseExpiresAt = now + d.cycleLeaseMs;
    const messages = await d.store.spaces.takeCycle(agentId, cycleId, q.limit, now, leaseExpiresAt);
    if (messages.length) {
      parked.cancel();
      return { cycleId, messages, leaseExpiresAt };
    }
    if ((await parked.outcome) !== 'woken' || Date.now() >= end) return { cycleId: null, messages: [] };
  }
}

export async function finishCycle(d: Domain, p: Principal, agentId: string, cycleId: string): Promise<CycleDoneAnswer> {
  requireRole(p, 'call');
  requireAgent(p, agentId);
  const out = await d.store.spaces.finishCycle(agentId, cycleId, Date.now());
  if (out.ok) return { cycleId, acknowledged: out.acknowledged };
  throw noCycle(agentId, cycleId);
}

/** Extends a cycle's lease by the configured lease from now, so a long cycle keeps its messages. */
export async function heartbeatCycle(
  d: Domain,
  p: Principal,
  agentId: string,
  cycleId: string,
): Promise<CycleHeartbeatAnswer> {
  requireRole(p, 'call');
  requireAgent(p, agentId);
  const leaseExpiresAt = Date.now() + d.cycleLeaseMs;
  if (await d.store.spaces.extendCycle(agentId, cycleId, leaseExpiresAt)) return { cycleId, leaseExpiresAt };
  throw noCycle(agentId, cycleId, ' that is not done yet');
}

function noCycle(agentId: string, cycleId: string, open = ''): ApiError {
  const how = `use the cycleId that POST /api/agents/${agentId}/cycles returned`;
  return new ApiError(404, 'NOT_FOUND', `agent "${agentId}" has no cycle "${cycleId}"${open}; ${how}`);
}
