// Approval over HTTP: the executor's Approver records the request in the store (approvers see it
// in GET /api/tool-calls and as an approval.requested event) and parks until a decision arrives
// through POST /api/tool-calls/:callId/approve or /reject.
import type { ApprovalDecision, Approver } from '@toolbelt/core';
import type { DecisionAnswer } from '@toolbelt/protocol';
import type { EventRecorder } from '../events/recorder.js';
import { ApiError } from '../http/errors.js';
import type { CallRecord, GatewayStore } from '../store/index.js';
import type { Waiters } from '../waiters.js';

export function httpApprover(store: GatewayStore, waiters: Waiters, recorder: EventRecorder): Approver {
  return async (request, signal) => {
    const ask = async () => {
      const now = Date.now();
      if (!(await store.requestApproval(request.callId, request, now))) return false;
      // Published after the store has the request, so an approver reacting at once finds it.
      recorder.publish({
        type: 'approval.requested',
        ts: now,
        sessionId: request.sessionId,
        callId: request.callId,
        tool: request.tool,
        request,
        ...(request.runId ? { runId: request.runId } : {}),
        ...(request.agentId ? { agentId: request.agentId } : {}),
      });
      return true;
    };
    const decided = async () => {
      const call = await store.getCall(request.callId);
      return call?.decision && call.status !== 'awaiting_approval' ? call.decision : undefined;
    };
    const decision = await waiters.forPerson(`approval.decided:${request.callId}`, signal, ask, decided);
    return decision ?? { outcome: 'reject', message: 'this call can only be approved through the gateway API' };
  };
}

/** Records a person's decision for a call awaiting approval. */
export async function decide(
  store: GatewayStore,
  call: CallRecord,
  decision: ApprovalDecision,
): Promise<DecisionAnswer> {
  const out = await store.decideApproval(call.callId, decision, Date.now());
  if (out.ok) return { callId: out.call.callId, status: out.call.status, decision: out.call.decision ?? decision };
  if (out.reason === 'not_found') throw new ApiError(404, 'NOT_FOUND', `no call ${call.callId}`);
  const status = out.call?.status ?? call.status;
  const already = out.call?.decision
    ? ` (already ${out.call.decision.outcome === 'approve' ? 'approved' : 'rejected'})`
    : '';
  throw new ApiError(
    409,
    'CONFLICT',
    `call ${call.callId} is not awaiting approval; its status is "${status}"${already}`,
  );
}
