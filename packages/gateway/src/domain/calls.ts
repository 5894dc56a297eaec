// Calling a tool over HTTP, and reading calls back: each call is recorded in the store first, so
// approvers, external executors and the agent itself can follow it.
import { errorResult, type ContentBlock, type CallRequest, type ToolResult } from '@toolbelt/core';
import type { CallBody, CallList } from '@toolbelt/protocol';
import { agentScope, canActFor, requireAgent, requireRole, type Principal } from '../http/auth.js';
import { ApiError } from '../http/errors.js';
import { readsAskedCallsOnly } from '../http/scope.js';
import { publishSettled, publishTool } from '../spaces/publish.js';
import {
  type CallFilter,
  type CallRecord,
  type NewCall,
  type NewToolMessage,
  type SpaceMessage,
  StoreUnavailableError,
  UNAVAILABLE_TEXT,
} from '../store/index.js';
import { newGatewayCallId } from './call-ids.js';
import type { Domain } from './context.js';
import type { CallInfo } from '../declared/pending.js';
import { isVisibleTool } from '../declared/visible.js';

/** Runs one call; the HTTP status says whether the request itself was acceptable. */
export async function callTool(
  d: Domain,
  p: Principal,
  runId: string,
  body: CallBody,
  requestSignal: AbortSignal,
): Promise<{ status: 200 | 404 | 422; result: ToolResult }> {
  requireRole(p, 'call');
  requireAgent(p, body.agentId);
  const callId = body.callId ?? newGatewayCallId();
  const sessionId = body.sessionId ?? body.agentId;
  await d.sessions.check(sessionId, body.agentId);
  // The request's own signal ends the call when the client hangs up, and at shutdown, when the
  // server closes every connection.
  return run(d, runId, body, {
    tool: body.name,
    input: body.input,
    callId,
    sessionId,
    runId,
    agentId: body.agentId,
    signal: requestSignal,
    origin: 'http',
    ...(body.model ? { model: body.model } : {}),
    ...(body.context ? { context: body.context } : {}),
  });
}

async function run(
  d: Domain,
  runId: string,
  body: CallBody,
  req: CallRequest & { callId: string; sessionId: string },
): Promise<{ status: 200 | 404 | 422; result: ToolResult }> {
  const { callId, sessionId } = req;
  // By its name or another tool set's (`bash`): the call is recorded under the tool it runs.
  const tool = d.executor.toolFor(body.name, body.input);
  if (!tool) return { status: 404, result: await d.executor.call(req) };
  const visible = isVisibleTool(tool);
  const space = visible ? await d.store.spaces.activeSpace(body.agentId) : undefined;
  if (visible && !space) return { status: 200, result: notInSpace(callId, body.name) };
  const call = {
    callId,
    runId,
    agentId: body.agentId,
    sessionId,
    tool: tool.name,
    input: body.input ?? {},
    visible,
    createdAt: Date.now(),
  };
  // A retry of a call that never got its result (pending, or cut off by a restart) takes it up again.
  const created = (await d.store.createCall(call)) || (await d.store.retakeCall(call));
  if (!created) {
    const again = await resultOnRetry(d, call);
    if (again) return { status: 200, result: again };
    throw new ApiError(
      409,
      'CONFLICT',
      `callId "${callId}" was already used (by another call, or this one is running or its result is in your inbox); send a new one, or leave it out and the gateway picks one`,
    );
  }
  if (space)
    await postVisible(d, {
      spaceId: space,
      senderId: body.agentId,
      callId,
      runId,
      tool: tool.name,
      input: body.input ?? {},
      createdAt: Date.now(),
    });
  const info: CallInfo = { runId, agentId: body.agentId, sessionId };
  d.inflight.set(callId, info);
  let result: ToolResult;
  try {
    result = await d.executor.call(req);
  } finally {
    d.inflight.delete(callId);
    d.visible.delete(callId);
  }
  // The database failed under the call: the agent hears 503 (retry shortly), never a tool error.
  if (info.storeError !== undefined) throw new StoreUnavailableError(info.storeError);
  // A tool of the gateway's own (a space's, a note's) that failed on the database: 503 as well.
  if (result.error?.code === 'EXECUTION_FAILED' && result.error.message.includes(UNAVAILABLE_TEXT))
    throw new StoreUnavailableError(result.error.message);
  publishSettled(d.recorder, await finish(d, callId, result));
  return { status: result.error?.code === 'INVALID_PARAMS' ? 422 : 200, result };
}

/** Records how the call ended; when the database fails, the agent gets 503 and the record is retried until it is taken. */
async function finish(d: Domain, callId: string, result: ToolResult): Promise<SpaceMessage | undefined> {
  const now = Date.now();
  try {
    return await d.store.finishCall(callId, result, now);
  } catch (err) {
    d.waiting.owe(`finish:${callId}`, () => d.store.finishCall(callId, result, now));
    throw err;
  }
}

/**
 * A retry of a call whose result arrived while its agent was cut off (a crash, a lost connection) and
 * never went to the inbox: the same result again, so an acknowledged result is never lost.
 */
async function resultOnRetry(d: Domain, call: NewCall): Promise<ToolResult | undefined> {
  const had = await d.store.getCall(call.callId);
  const same = had?.agentId === call.agentId && had.runId === call.runId && had.tool === call.tool;
  if (!same || had.status !== 'resolved' || !had.submitted || (await d.store.inboxOfCall(call.callId)))
    return undefined;
  const s = had.submitted;
  if ('error' in s) return errorResult(call.callId, call.tool, 'EXECUTION_FAILED', `${call.tool} failed: ${s.error}`);
  const content: ContentBlock[] =
    typeof s.result === 'string' ? [{ type: 'text', text: s.result }] : [{ type: 'json', json: s.result }];
  return { status: 'success', callId: call.callId, tool: call.tool, content, structured: s.result, durationMs: 0 };
}

/** The gateway specification's answer to a visible call made outside a space. */
function notInSpace(callId: string, tool: string): ToolResult {
  return errorResult(
    callId,
    tool,
    'PERMISSION_DENIED',
    `Tool "${tool}" is visible but you are not in a space. Call enter_space first.`,
    { recoverable: true },
  );
}

/** Posts a visible call to its agent's active space, where people see it start and stream. */
async function postVisible(d: Domain, m: NewToolMessage): Promise<void> {
  const message = await d.store.spaces.postToolCall(m);
  d.visible.set(m.callId, message);
  publishTool(d.recorder, message, 'started');
}

/**
 * A call this principal may see, or 404 (another agent's call is not admitted to exist). An
 * approver sees the calls that asked a person: an approval or a question (see readsAskedCallsOnly).
 */
export async function visibleCall(d: Domain, p: Principal, callId: string): Promise<CallRecord> {
  const call = await d.store.getCall(callId);
  const seen =
    call &&
    canActFor(p, call.agentId) &&
    (!readsAskedCallsOnly(p) || call.approval !== undefined || call.question !== undefined);
  if (!seen) throw new ApiError(404, 'NOT_FOUND', `no call "${callId}"; list calls with GET /api/tool-calls`);
  return call;
}

export async function listCalls(
  d: Domain,
  p: Principal,
  q: Omit<CallFilter, 'agentIds'> & { agentId?: string },
): Promise<CallList> {
  const { agentId, ...rest } = q;
  const filter: CallFilter = { ...rest };
  const agents = agentScope(p, agentId === undefined ? undefined : [agentId]);
  if (agents) filter.agentIds = agents;
  if (readsAskedCallsOnly(p)) filter.askedPerson = true;
  const calls = await d.store.listCalls(filter);
  return (calls.length === q.limit || calls.cut) && calls.length
    ? { calls: [...calls], nextBefore: calls[calls.length - 1].seq }
    : { calls: [...calls] };
}
