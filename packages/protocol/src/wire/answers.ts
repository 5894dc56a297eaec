// Answers of the gateway's routes (a tool call is answered with its ToolResult: 200, 404 or 422),
// and the body of every refused request.
import type { ApprovalDecision, ExecutionLogEntry, ProviderFormat, ProviderTool } from '@toolbelt/core';
import type { CallRecord, CallStatus, InputAnswer, ToolInfo } from './calls.js';
import type { InboxMessage } from './inbox.js';

export interface HealthAnswer {
  ok: boolean;
  /** Why not, when ok is false (503): e.g. the database is unreachable. */
  error?: string;
}

export interface ToolList {
  tools: ToolInfo[];
}

/** GET /api/tools?format=...: each tool in the provider's own shape. */
export interface ProviderToolList<F extends ProviderFormat = ProviderFormat> {
  tools: ProviderTool<F>[];
}

export interface SubmitAnswer {
  callId: string;
  status: 'resolved';
  /** inline: the waiting agent got it as its call's result; inbox: it waits in the agent's inbox. */
  delivered: 'inline' | 'inbox';
  inboxMessageId?: number;
}

/** The answer to POST /api/tool-calls/:callId/answer. */
export interface AnswerReply {
  callId: string;
  status: CallStatus;
  answer: InputAnswer;
}

/** Newest first; nextBefore is the cursor for the next page, absent on the last one. */
export interface CallList {
  calls: CallRecord[];
  nextBefore?: number;
}

/** The answer to approve and reject. */
export interface DecisionAnswer {
  callId: string;
  status: CallStatus;
  decision: ApprovalDecision;
}

export interface InboxList {
  messages: InboxMessage[];
}

export interface AckAnswer {
  acknowledged: number;
}

/**
 * POST /api/agents/:agentId/cycles: the unread inbox as one batch, oldest first; cycleId null when
 * empty. A cycle not marked done by `leaseExpiresAt` (epoch ms; a heartbeat extends it) offers its
 * messages again to the next cycle: at least once.
 */
export type CycleAnswer =
  { cycleId: string; messages: InboxMessage[]; leaseExpiresAt?: number } | { cycleId: null; messages: [] };

/** Newest first; nextBefore is the cursor for the next (older) page, absent on the last one. */
export interface ExecutionList {
  entries: ExecutionLogEntry[];
  nextBefore?: number;
}

export type ApiErrorCode =
  | 'BAD_REQUEST'
  | 'INVALID_JSON'
  | 'INVALID_PARAMS'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  /** A call sent another agent's session id (403): send one of your own, or none. */
  | 'SESSION_NOT_YOURS'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'GONE'
  | 'PAYLOAD_TOO_LARGE'
  /** The gateway cannot reach its database now (503); it reconnects by itself, so retry shortly. */
  | 'UNAVAILABLE'
  | 'INTERNAL';

/** Every refused request: what was wrong and what to do. */
export interface ApiErrorBody {
  error: { code: ApiErrorCode; message: string };
}
