// POST /api/runs/:runId/tool-results: a result from outside for an open call. It wakes the
// waiting agent, or lands in the agent's inbox exactly once; anything else changes nothing.
import type { Submission, SubmitAnswer } from '@toolbelt/protocol';
import { canActFor, hasRole, requireRole, type Principal } from '../http/auth.js';
import { publishSettled } from '../spaces/publish.js';
import type { CallRecord, SpaceMessage } from '../store/index.js';
import { ApiError } from '../http/errors.js';
import type { Domain } from './context.js';

export async function submitResult(
  d: Domain,
  p: Principal,
  runId: string,
  callId: string,
  submission: Submission,
  spaceId?: string,
): Promise<SubmitAnswer> {
  if (!p.roles.has('person')) requireRole(p, 'submit');
  const call = await d.store.getCall(callId);
  const message = call?.visible ? await d.store.spaces.messageOfCall(callId) : undefined;
  const missing = () =>
    new ApiError(
      404,
      'NOT_FOUND',
      `no call "${callId}" in run "${runId}"; check the callId and the run it was made in`,
    );
  if (!(await mayAnswer(d, p, call, message))) throw missing();
  if (spaceId !== undefined && message?.spaceId !== spaceId)
    throw new ApiError(
      404,
      'NOT_FOUND',
      `call "${callId}" was not posted in space "${spaceId}"; answer it in the space it was posted to`,
    );
  if (!call || call.runId !== runId) throw missing();
  const now = Date.now();
  const out = await d.store.resolveCall(callId, runId, submission, now, d.waiting.has);
  if (!out.ok) {
    if (out.reason === 'not_found') throw missing();
    if (out.reason === 'expired') {
      const at = call.expiresAt ? ` at ${new Date(call.expiresAt).toISOString()}` : '';
      throw new ApiError(
        410,
        'GONE',
        `call "${callId}" expired${at}; its agent was told it got no result, so this one is not delivered`,
      );
    }
    const status = out.call?.status ?? call.status;
    if (status === 'resolved')
      throw new ApiError(409, 'CONFLICT', `call "${callId}" already has its result; a result is accepted once`);
    throw new ApiError(
      409,
      'CONFLICT',
      `call "${callId}" is not waiting for a result (status "${status}"); only calls of external and space tools take submitted results`,
    );
  }
  const base = { ts: now, sessionId: call.sessionId, runId, agentId: call.agentId, callId, tool: call.tool };
  d.recorder.publish({ ...base, type: 'pending.resolved', previous: out.previous });
  if (out.inbox) d.recorder.publish({ ...base, type: 'inbox.added', messageId: out.inbox.id });
  publishSettled(d.recorder, out.message);
  const answer: SubmitAnswer = {
    callId,
    status: 'resolved',
    delivered: out.previous === 'waiting' ? 'inline' : 'inbox',
  };
  if (out.inbox) answer.inboxMessageId = out.inbox.id;
  return answer;
}

/**
 * A submitter for the call's agent, or a person answering a space call posted in a space they are
 * a member of.
 */
async function mayAnswer(
  d: Domain,
  p: Principal,
  call: CallRecord | undefined,
  message: SpaceMessage | undefined,
): Promise<boolean> {
  if (!call) return false;
  if (hasRole(p, 'submit') && canActFor(p, call.agentId)) return true;
  if (!p.roles.has('person') || !message) return false;
  const member = await d.store.spaces.getMember(message.spaceId, p.name);
  if (member?.kind !== 'person') return false;
  if (message.status === 'running')
    throw new ApiError(409, 'CONFLICT', `call "${call.callId}" waits for its executor, not for a person's answer`);
  return true;
}
