// Rows of the SQLite store to records and back.
import type { ApprovalDecision, ApprovalRequest, ToolResult } from '@toolbelt/core';
import type { CallRecord, InboxMessage, Submission } from './types.js';

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
  if (r.submitted !== null) call.submitted = parse<Submission>(r.submitted);
  if (r.result !== null) call.result = parse<ToolResult>(r.result);
  if (r.expires_at !== null) call.expiresAt = r.expires_at;
  if (r.resolved_at !== null) call.resolvedAt = r.resolved_at;
  return call;
}

export function toMessage(r: Row): InboxMessage {
  const payload = JSON.parse(r.payload) as Submission;
  const m: InboxMessage = { id: r.id, agentId: r.agent_id, runId: r.run_id, callId: r.call_id, tool: r.tool, createdAt: r.created_at };
  if ('error' in payload) m.error = payload.error;
  else m.result = payload.result;
  if (r.acked_at !== null) m.ackedAt = r.acked_at;
  return m;
}
