// external and space execution: the call waits for a result from outside. isAsync answers
// "pending" at once; otherwise the agent waits up to the timeout, woken by the store's notice
// when the result is submitted. Every way out of waiting (the time is up, the agent hung up, the
// gateway shuts down, the database failed) leaves the call pending, so its late result goes to the
// agent's inbox.
import { errorResult, ToolError, type DeferredOutput, type ToolContext, type ToolOutput } from '@toolbelt/core';
import type { DeclaredTool } from '../config.js';
import type { EventRecorder } from '../events/recorder.js';
import { type GatewayStore, type Submission, within } from '../store/index.js';
import type { Waiters, WaitOutcome } from '../waiters.js';
import type { WaitingCalls } from '../waiting-calls.js';
import { publishMessage } from '../spaces/publish.js';

export interface CallInfo {
  runId: string;
  agentId: string;
  sessionId: string;
  /** The database failed under the call: the agent gets 503, not a tool error. */
  storeError?: unknown;
}

export interface PendingDeps {
  store: GatewayStore;
  waiters: Waiters;
  recorder: EventRecorder;
  /** Who made the call: known for calls that came in over HTTP. */
  callInfo(callId: string): CallInfo | undefined;
  pendingTtlMs: number;
  /** Calls waited on here, and the releases owed after a database failure. */
  waiting: WaitingCalls;
}

export const DEFAULT_WAIT_MS = 30_000;
/** How long past its own deadline a call waits for the database to record how it ended. */
const GRACE_MS = 1000;

/** `op` bounded by the call's deadline (plus the grace to record its end): a silent database fails the call on time. */
const onTime = <T>(op: Promise<T>, wait: Wait, what: string): Promise<T> =>
  within(op, Math.max(GRACE_MS, wait.started + wait.waitMs + GRACE_MS - Date.now()), what);

function outputOf(name: string, s: Submission | undefined): ToolOutput {
  if (!s) throw new ToolError('EXECUTION_FAILED', `${name}: the call was resolved without a result`);
  if ('error' in s) throw new ToolError('EXECUTION_FAILED', `${name} failed: ${s.error}`);
  if (typeof s.result === 'string') return { content: s.result, structured: s.result };
  return { content: [{ type: 'json', json: s.result }], structured: s.result };
}

export async function pendingCall(
  spec: DeclaredTool,
  input: unknown,
  ctx: ToolContext,
  deps: PendingDeps,
): Promise<ToolOutput | DeferredOutput> {
  const { callId } = ctx;
  const info = deps.callInfo(callId);
  if (!info)
    throw new ToolError(
      'EXECUTION_FAILED',
      `${spec.name} waits for a result submitted over the gateway API, so it can only be called through POST /api/runs/:runId/tool-calls`,
    );
  const mode = spec.isAsync ? 'pending' : 'waiting';
  const started = Date.now();
  const wait: Wait = { waitMs: spec.timeout ?? DEFAULT_WAIT_MS, started, key: `call.resolved:${callId}`, expiresAt: 0 };
  wait.expiresAt = started + (mode === 'waiting' ? Math.max(deps.pendingTtlMs, wait.waitMs) : deps.pendingTtlMs);
  deps.waiting.add(callId);
  try {
    return await openAndWait(spec, input, ctx, deps, { info, mode, wait });
  } catch (err) {
    if (err instanceof ToolError) throw err;
    throw await leaveAfterFailure(spec.name, callId, info, deps, wait, err);
  } finally {
    deps.waiting.delete(callId);
  }
}

interface Opening {
  info: CallInfo;
  mode: 'waiting' | 'pending';
  wait: Wait;
}

async function openAndWait(
  spec: DeclaredTool,
  input: unknown,
  ctx: ToolContext,
  deps: PendingDeps,
  { info, mode, wait }: Opening,
): Promise<ToolOutput | DeferredOutput> {
  const { callId } = ctx;
  // Park first: a result submitted the instant the call opens must still wake us.
  const parked = mode === 'waiting' ? deps.waiters.park(wait.key, wait.waitMs, ctx.signal) : undefined;
  try {
    if (!(await onTime(deps.store.openCall(callId, mode, wait.expiresAt, wait.started), wait, 'opening the call')))
      throw new ToolError(
        'CONFLICT',
        `${spec.name}: call ${callId} is not in a state that can wait for a result; call again with a new callId`,
      );
    // A space tool's message now waits for a person's answer.
    const asking =
      spec.executionType === 'space'
        ? await onTime(deps.store.spaces.requireAction(callId, wait.started), wait, 'asking the space')
        : undefined;
    if (asking) publishMessage(deps.recorder, asking);
  } catch (err) {
    parked?.cancel();
    throw err;
  }
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
    expiresAt: wait.expiresAt,
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

/** How long a waiting call waits, from when, the waiters' key its result wakes, and when it expires unanswered. */
interface Wait {
  waitMs: number;
  started: number;
  key: string;
  expiresAt: number;
}

/**
 * The database failed while the call waited: the call leaves for pending in one step (a result that
 * came first goes to the inbox), or, with the database still down, as soon as it is back. The agent
 * gets 503 (run() reads `storeError`), and its call's result reaches its inbox.
 */
async function leaveAfterFailure(
  tool: string,
  callId: string,
  info: CallInfo,
  deps: PendingDeps,
  wait: Wait,
  err: unknown,
): Promise<ToolError> {
  const message = `${tool}: the gateway database failed while the call waited for its result. The call stays open: its result goes to your inbox (call ${callId}).`;
  const why = errorResult(callId, tool, 'EXECUTION_FAILED', message, { recoverable: true });
  const step = () => deps.store.releaseWaiter(callId, Date.now(), { why, expiresAt: wait.expiresAt, orInbox: true });
  try {
    await within(step(), GRACE_MS, 'recording the call as pending');
  } catch {
    deps.waiting.owe(callId, step);
  }
  info.storeError = err;
  return new ToolError('EXECUTION_FAILED', message, { recoverable: true });
}

/**
 * Waits out a waiting call after its first wake-up (`outcome`): parks again on a wake-up that
 * brought no result, until the result is stored, the time is up or the call is cancelled. With no
 * result, the call becomes pending in the same step that records why, so a late result goes to the inbox.
 */
async function awaitResult(
  spec: DeclaredTool,
  ctx: ToolContext,
  deps: PendingDeps,
  wait: Wait,
  outcome: WaitOutcome,
): Promise<ToolOutput | DeferredOutput> {
  const { store } = deps;
  const { callId } = ctx;
  for (;;) {
    const call = await onTime(store.getCall(callId), wait, 'reading the call');
    if (call?.status === 'resolved') return outputOf(spec.name, call.submitted);
    const left = wait.started + wait.waitMs - Date.now();
    if (outcome !== 'woken' || left <= 0) break;
    outcome = await deps.waiters.park(wait.key, left, ctx.signal).outcome;
  }
  const error =
    outcome === 'aborted'
      ? new ToolError(
          'ABORTED',
          `${spec.name} was cancelled while waiting for its result; if the result still arrives it goes to your inbox (call ${callId}).`,
        )
      : new ToolError(
          'TIMEOUT',
          `Tool timed out after ${wait.waitMs}ms: ${spec.name} got no result in time. The call stays open: if its result arrives later it goes to your inbox (call ${callId}). Tell the user, or call again only if a repeat is harmless.`,
        );
  // Cancelled, nobody is left to hand a result to; timed out, the agent still gets one that just landed.
  const why = errorResult(callId, spec.name, error.code, error.message, { recoverable: error.recoverable });
  const leave = { why, expiresAt: wait.expiresAt, orInbox: outcome === 'aborted' };
  const left = await onTime(store.releaseWaiter(callId, Date.now(), leave), wait, 'recording the call as pending');
  if (left.outcome === 'resolved' && outcome !== 'aborted') {
    const call = await onTime(store.getCall(callId), wait, 'reading the call');
    if (call?.status === 'resolved') return outputOf(spec.name, call.submitted);
  }
  throw error;
}
