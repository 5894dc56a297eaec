// external and space execution: the call waits for a result from outside. isAsync answers
// "pending" at once; otherwise the agent waits up to the timeout, woken by the store's notice
// when the result is submitted. A call that runs out of time stays open and its late result goes
// to the agent's inbox.
import { ToolError, type ToolContext, type ToolOutput } from '@toolbelt/core';
import type { DeclaredTool } from '../config.js';
import type { EventRecorder } from '../events/recorder.js';
import type { GatewayStore, Submission } from '../store/types.js';
import type { Waiters, WaitOutcome } from '../waiters.js';
import { publishMessage } from '../spaces/publish.js';

export interface CallInfo {
  runId: string;
  agentId: string;
  sessionId: string;
}

export interface PendingDeps {
  store: GatewayStore;
  waiters: Waiters;
  recorder: EventRecorder;
  /** Who made the call: known for calls that came in over HTTP. */
  callInfo(callId: string): CallInfo | undefined;
  pendingTtlMs: number;
}

export const DEFAULT_WAIT_MS = 30_000;

export function outputOf(name: string, s: Submission | undefined): ToolOutput {
  if (!s) throw new ToolError('EXECUTION_FAILED', `${name}: the call was resolved without a result`);
  if ('error' in s) throw new ToolError('EXECUTION_FAILED', `${name} failed: ${s.error}`);
  if (typeof s.result === 'string') return { content: s.result, structured: s.result };
  return { content: [{ type: 'json', json: s.result }], structured: s.result };
}

export async function pendingCall(spec: DeclaredTool, input: unknown, ctx: ToolContext, deps: PendingDeps): Promise<ToolOutput> {
  const { callId } = ctx;
  const info = deps.callInfo(callId);
  if (!info)
    throw new ToolError(
      'EXECUTION_FAILED',
      `${spec.name} waits for a result submitted over the gateway API, so it can only be called through POST /api/runs/:runId/tool-calls`,
    );
  const mode = spec.isAsync ? 'pending' : 'waiting';
  const wait: Wait = { waitMs: spec.timeout ?? DEFAULT_WAIT_MS, started: Date.now(), key: `call.resolved:${callId}` };
  // Park first: a result submitted the instant the call opens must still wake us.
  const parked = mode === 'waiting' ? deps.waiters.park(wait.key, wait.waitMs, ctx.signal) : undefined;
  const expiresAt = wait.started + (parked ? Math.max(deps.pendingTtlMs, wait.waitMs) : deps.pendingTtlMs);
  if (!(await deps.store.openCall(callId, mode, expiresAt, wait.started))) {
    parked?.cancel();
    throw new ToolError('CONFLICT', `${spec.name}: call ${callId} is not in a state that can wait for a result; call again with a new callId`);
  }
  // A space tool's message now waits for a person's answer.
  const asking = spec.executionType === 'space' ? await deps.store.spaces.requireAction(callId, wait.started) : undefined;
  if (asking) publishMessage(deps.recorder, asking);
  deps.recorder.publish({
    type: 'pending.created',
    ts: wait.started,
    sessionId: info.sessionId,
    runId: info.runId,
    agentId: info.agentId,
    callId,
    tool: spec.name,
    input,
    executionType: spec.executionType,
    visible: spec.visible ?? spec.executionType !== 'internal',
    mode,
    expiresAt,
  });
  if (!parked) {
    return {
      pending: true,
      content: `${spec.name} was accepted and runs asynchronously (call ${callId}). Its result will arrive in your inbox; continue with other work.`,
      structured: { status: 'pending', pendingToolCallId: callId },
    };
  }
  return awaitResult(spec, ctx, deps, wait, await parked.outcome);
}

/** How long a waiting call waits, from when, and the waiters' key its result wakes. */
interface Wait {
  waitMs: number;
  started: number;
  key: string;
}

/**
 * Waits out a waiting call after its first wake-up (`outcome`): parks again on a wake-up that
 * brought no result, until the result is stored, the time is up or the call is cancelled. With no
 * result, the call becomes pending, so a late result goes to the inbox.
 */
async function awaitResult(spec: DeclaredTool, ctx: ToolContext, deps: PendingDeps, wait: Wait, outcome: WaitOutcome): Promise<ToolOutput> {
  const { store } = deps;
  const { callId } = ctx;
  for (;;) {
    const call = await store.getCall(callId);
    if (call?.status === 'resolved') return outputOf(spec.name, call.submitted);
    const left = wait.started + wait.waitMs - Date.now();
    if (outcome !== 'woken' || left <= 0) break;
    outcome = await deps.waiters.park(wait.key, left, ctx.signal).outcome;
  }
  if (!(await store.releaseWaiter(callId, Date.now()))) {
    // The result landed between the wake-up and the release: it is ours, not the inbox's.
    const call = await store.getCall(callId);
    if (call?.status === 'resolved') return outputOf(spec.name, call.submitted);
  }
  if (outcome === 'aborted') {
    throw new ToolError(
      'ABORTED',
      `${spec.name} was cancelled while waiting for its result; if the result still arrives it goes to your inbox (call ${callId}).`,
    );
  }
  throw new ToolError(
    'TIMEOUT',
    `Tool timed out after ${wait.waitMs}ms: ${spec.name} got no result in time. The call stays open: if its result arrives later it goes to your inbox (call ${callId}). Tell the user, or call again only if a repeat is harmless.`,
  );
}
