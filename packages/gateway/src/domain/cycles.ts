// Think cycles: an agent takes its unread inbox as one batch, works through it, and says it is done.
// A message is taken by one cycle only (the store marks it in the same step), across restarts too.
import { randomBytes } from 'node:crypto';
import type { CycleAnswer, CycleDoneAnswer } from '@toolbelt/core';
import { requireAgent, requireRole, type Principal } from '../http/auth.js';
import { ApiError } from '../http/errors.js';
import type { Waiters } from '../waiters.js';
import type { Domain } from './context.js';

export interface CycleQuery {
  /** Wait up to this long for a first message when the inbox is empty. */
  waitMs: number;
  limit: number;
}

export async function takeCycle(d: Domain, waiters: Waiters, p: Principal, agentId: string, q: CycleQuery, signal: AbortSignal): Promise<CycleAnswer> {
  requireRole(p, 'call');
  requireAgent(p, agentId);
  const end = Date.now() + q.waitMs;
  for (;;) {
    // Park before looking, so a message stored in between still wakes us.
    const parked = waiters.park(`inbox.added:${agentId}`, end - Date.now(), signal);
    const cycleId = `cy_${randomBytes(9).toString('base64url')}`;
    const messages = await d.store.spaces.takeCycle(agentId, cycleId, q.limit, Date.now());
    if (messages.length) {
      parked.cancel();
      return { cycleId, messages };
    }
    if ((await parked.outcome) !== 'woken' || Date.now() >= end) return { cycleId: null, messages: [] };
  }
}

export async function finishCycle(d: Domain, p: Principal, agentId: string, cycleId: string): Promise<CycleDoneAnswer> {
  requireRole(p, 'call');
  requireAgent(p, agentId);
  const out = await d.store.spaces.finishCycle(agentId, cycleId, Date.now());
  if (out.ok) return { cycleId, acknowledged: out.acknowledged };
  if (out.reason === 'done')
    throw new ApiError(409, 'CONFLICT', `cycle "${cycleId}" is done already; take the next one with POST /api/agents/${agentId}/cycles`);
  throw new ApiError(404, 'NOT_FOUND', `agent "${agentId}" has no cycle "${cycleId}"; use the cycleId that POST /api/agents/${agentId}/cycles returned`);
}
