// Asking a person about a call the policy says to ask about: the request they see (the verdict,
// the preview, what "always" would cover), the wait with its time limit, and what is remembered.
import type { ApprovalDecision, ApprovalRequest } from '../approval.js';
import type { PolicyDecision } from '../policy/types.js';
import { ToolError, type Classification, type Invocation, type Tool } from '../tool.js';
import { describeError, TimeoutReason, type Deadline } from './attempt.js';
import type { CallContext } from './call-context.js';
import type { CallHost } from './call-host.js';
import { rememberTarget } from './call-input.js';
import type { CallRequest } from './request.js';

/** What asking reads of a call, and the wait it records. */
export interface AskingCall {
  readonly host: CallHost;
  readonly req: CallRequest;
  readonly callId: string;
  readonly tool: Tool;
  readonly ctx: CallContext;
  readonly deadline: Deadline;
  readonly classification: Classification;
  readonly decision: PolicyDecision;
  readonly invocation: Invocation | undefined;
  readonly input: unknown;
  /** Milliseconds spent waiting for the decision; set here. */
  approvalWaitMs: number;
}

/**
 * Asks the approver of the call's origin, within the approval time limit; a limit passed or an
 * approver that failed is a rejection, a caller gone away a cancellation (thrown). Remembers a
 * session or "always" approval before it returns.
 */
export async function askApproval(call: AskingCall): Promise<ApprovalDecision> {
  const { tool, host, deadline, classification: c } = call;
  const request = await approvalRequest(call);
  host.emit(call.req, { type: 'approval.requested', callId: call.callId, tool: tool.name, request });
  const limit = host.limits.approvalTimeoutMs;
  let verdict: ApprovalDecision;
  const asked = performance.now();
  try {
    const approve = call.req.approver ?? host.approve;
    verdict = await deadline.run(() => approve(request, deadline.signal), limit);
    call.approvalWaitMs = performance.now() - asked;
  } catch (err) {
    call.approvalWaitMs = performance.now() - asked;
    if (deadline.stopped !== undefined) {
      if (deadline.stopped instanceof TimeoutReason) throw err;
      // The caller went away (a client hung up, a signal) while a person was being asked: the
      // tool never ran, so this is a cancellation, not a failure of the tool.
      throw new ToolError(
        'ABORTED',
        `${tool.name} was cancelled before it ran: the call was cancelled while it waited for approval.`,
      );
    }
    const timedOut = err instanceof TimeoutReason;
    verdict = {
      outcome: 'reject',
      reason: timedOut
        ? `${tool.name} was not run: no one approved it within ${limit} ms`
        : `${tool.name} was not run: asking for approval failed (${describeError(err)})`,
    };
  }
  if (verdict.outcome === 'approve' && (verdict.scope === 'session' || verdict.scope === 'always')) {
    // An approver may narrow or re-aim what is remembered, but only for this same tool.
    const target = verdict.remember && verdict.remember.tool === tool.name ? verdict.remember : request.remember;
    await host.policy.remember(target, verdict.scope, call.ctx.sessionId, c.effect, call.req.agentId);
  }
  host.emit(call.req, {
    type: 'approval.resolved',
    callId: call.callId,
    tool: tool.name,
    decision: verdict,
    ...(verdict.outcome === 'approve' ? { approvedBy: 'user' as const } : {}),
  });
  return verdict;
}

async function approvalRequest(call: AskingCall): Promise<ApprovalRequest> {
  const { tool, req, classification: c } = call;
  const request: ApprovalRequest = {
    callId: call.callId,
    sessionId: call.ctx.sessionId,
    tool: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.description,
    input: call.input,
    effect: c.effect,
    reason: c.reason ? `${call.decision.reason}; ${c.reason}` : call.decision.reason,
    warnings: c.warnings ?? [],
    remember: rememberTarget(tool.name, c),
    ...(req.runId ? { runId: req.runId } : {}),
    ...(req.agentId ? { agentId: req.agentId } : {}),
    ...(req.context?.trim() ? { context: clipContext(req.context) } : {}),
    origin: req.origin ?? 'library',
  };
  const preview = call.invocation ? await call.invocation.preview?.() : await tool.preview?.(call.input, call.ctx);
  if (preview) request.preview = preview;
  return request;
}

/** A context is a line or two for a person, not a transcript. */
function clipContext(text: string): string {
  const t = text.trim().replace(/\s+/g, ' ');
  return t.length > 500 ? `${t.slice(0, 499)}…` : t;
}
