// POST /api/runs/:runId/tool-results: a result from outside for an open call. It wakes the
// waiting agent, or lands in the agent's inbox exactly once; anything else changes nothing.
import type { Submission, SubmitAnswer } from '@toolbelt/core';
import { canActFor, requireRole, type Principal } from '../http/auth.js';
import { ApiError } from '../http/errors.js';
import type { Domain } from './context.js';

export async function submitResult(d: Domain, p: Principal, runId: string, callId: string, submission: Submission): Promise<SubmitAnswer> {
  requireRole(p, 'submit');
  const call = await d.store.getCall(callId);
  const missing = () => new ApiError(404, 'NOT_FOUND', `no call "${callId}" in run "${runId}"; check the callId and the run it was made in`);
  if (!call || call.runId !== runId || !canActFor(p, call.agentId)) throw missing();
  const now = Date.now();
  const out = await d.store.resolveCall(callId, runId, submission, now);
  if (!out.ok) {
    if (out.reason === 'not_found') throw missing();
    if (out.reason === 'expired') {
      const at = call.expiresAt ? ` at ${new Date(call.expiresAt).toISOString()}` : '';
      throw new ApiError(410, 'GONE', `call "${callId}" expired${at}; its agent was told it got no result, so this one is not delivered`);
    }
    const status = out.call?.status ?? call.status;
    if (status === 'resolved') throw new ApiError(409, 'CONFLICT', `call "${callId}" already has its result; a result is accepted once`);
    throw new ApiError(
      409,
      'CONFLICT',
      `call "${callId}" is not waiting for a result (status "${status}"); only calls of external and space tools take submitted results`,
    );
  }
  const base = { ts: now, sessionId: call.sessionId, runId, agentId: call.agentId, callId, tool: call.tool };
  d.recorder.publish({ ...base, type: 'pending.resolved', previous: out.previous });
  if (out.inbox) d.recorder.publish({ ...base, type: 'inbox.added', messageId: out.inbox.id });
  const answer: SubmitAnswer = { callId, status: 'resolved', delivered: out.previous === 'waiting' ? 'inline' : 'inbox' };
  if (out.inbox) answer.inboxMessageId = out.inbox.id;
  return answer;
}
