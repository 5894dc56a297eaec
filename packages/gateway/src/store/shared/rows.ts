// Rows of the SQLite store to records and back.
import {
  errorResult,
  textOf,
  type ApprovalDecision,
  type ApprovalRequest,
  type ElicitationRequest,
  type ErrorResult,
  type ToolResult,
} from '@toolbelt/core';
import type { InputAnswer } from '@toolbelt/protocol';
import type { CallRecord, InboxMessage, SpaceMessage, Submission } from './types.js';
import type { AgentNote, Space, SpaceMember } from './space-types.js';

export type Row = Record<string, any>;

export const parse = <T>(text: string | null): T | undefined => (text === null ? undefined : (JSON.parse(text) as T));
export const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

export function toCall(r: Row): CallRecord {
  const call: CallRecord = {
    seq: r.seq,
    callId: r.call_id,
    runId: r.run_id,
    agentId: r.agent_id,
    sessionId: r.session_id,
    tool: r.tool,
    input: JSON.parse(r.input),
    status: r.status,
    visible: r.visible === 1,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
  if (r.approval !== null) call.approval = parse<ApprovalRequest>(r.approval);
  if (r.decision !== null) call.decision = parse<ApprovalDecision>(r.decision);
  if (r.question != null) call.question = parse<ElicitationRequest>(r.question);
  if (r.answer != null) call.answer = parse<InputAnswer>(r.answer);
  if (r.submitted !== null) call.submitted = parse<Submission>(r.submitted);
  if (r.result !== null) call.result = parse<ToolResult>(r.result);
  if (r.expires_at !== null) call.expiresAt = r.expires_at;
  if (r.resolved_at !== null) call.resolvedAt = r.resolved_at;
  return call;
}

export function toMessage(r: Row): InboxMessage {
  const base = { id: r.id as number, agentId: r.agent_id as string, createdAt: r.created_at as number };
  let m: InboxMessage;
  if (r.kind === 'message')
    m = { ...base, kind: 'message', spaceId: r.space_id, message: JSON.parse(r.payload) as SpaceMessage };
  else {
    const payload = JSON.parse(r.payload) as Submission;
    m = { ...base, kind: 'tool_result', runId: r.run_id, callId: r.call_id, tool: r.tool };
    if ('error' in payload) m.error = payload.error;
    else m.result = payload.result;
  }
  if (r.acked_at !== null) m.ackedAt = r.acked_at;
  if (r.cycle_id) m.cycleId = r.cycle_id;
  return m;
}

export function toSpaceMessage(r: Row): SpaceMessage {
  const m: SpaceMessage = {
    id: r.id,
    spaceId: r.space_id,
    senderId: r.sender_id,
    senderKind: r.sender_kind,
    kind: r.kind,
    status: r.status,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
  if (r.text !== null) m.text = r.text;
  if (r.call_id !== null)
    Object.assign(m, { callId: r.call_id, runId: r.run_id, tool: r.tool, input: JSON.parse(r.input) });
  const outcome = parse<Submission>(r.outcome);
  if (outcome && 'error' in outcome) m.error = outcome.error;
  else if (outcome) m.result = outcome.result;
  return m;
}

/** What a space message shows of a finished call: its structured output or text, or what went wrong. */
export function outcomeOf(r: ToolResult): Submission {
  if (r.status === 'error') return { error: r.error.message };
  if (r.status === 'rejected') return { error: `rejected: ${r.rejection.userMessage ?? r.rejection.reason}` };
  return { result: r.structured !== undefined ? r.structured : textOf(r) };
}

/** What a call cut off by a restart ends with. */
export function interrupted(callId: string, tool: string): ErrorResult {
  const message = `the gateway stopped while ${tool} was running; it may or may not have taken effect. Check before calling it again.`;
  return errorResult(callId, tool, 'ABORTED', message);
}

export const toSpace = (r: Row): Space => ({ id: r.id, name: r.name, createdAt: r.created_at });
export const toMember = (r: Row): SpaceMember => ({
  spaceId: r.space_id,
  memberId: r.member_id,
  kind: r.kind,
  joinedAt: r.joined_at,
});
export const toNote = (r: Row): AgentNote => ({ id: r.id, text: r.text, updatedAt: r.updated_at });
