// Calls through the gateway as the wire carries them: their lifecycle, the record the gateway keeps
// of each, and the tools it lists. Types only, like every file of wire/: importing them costs
// nothing at run time.
import type {
  ApprovalDecision,
  ApprovalRequest,
  Effect,
  ElicitationAnswer,
  ElicitationRequest,
  ToolResult,
} from '@toolbelt/core';

/**
 * Lifecycle of a call made through the gateway. running / awaiting_approval / awaiting_input
 * (a tool asks a person a question: an MCP server's elicitation) while the executor has it; success / error / rejected when it ended normally; waiting -> resolved (the agent got it
 * inline) or pending -> resolved (it went to the inbox) for calls whose result comes from outside;
 * expired when an open call outlived its time to live.
 */
export type CallStatus =
  | 'running'
  | 'awaiting_approval'
  | 'awaiting_input'
  | 'waiting'
  | 'pending'
  | 'resolved'
  | 'expired'
  | 'success'
  | 'error'
  | 'rejected';

/** What an external executor (or a person in a space) sent back for a call. */
export type Submission = { result: unknown } | { error: string };

/** In a listing: fields too large to list, cut to a preview; the whole record is at `href`. */
export interface Truncated {
  fields: string[];
  /** Characters of the fields as stored. */
  size: number;
  href: string;
}

/** A call as the gateway keeps it: GET /api/tool-calls and /api/tool-calls/:callId. */
export interface CallRecord {
  /** Listings only: which fields were cut to a preview (GET the href for the whole call). */
  truncated?: Truncated;
  /** Monotonic per store; the cursor for listing. */
  seq: number;
  callId: string;
  runId: string;
  agentId: string;
  sessionId: string;
  tool: string;
  input: unknown;
  status: CallStatus;
  visible: boolean;
  approval?: ApprovalRequest;
  decision?: ApprovalDecision;
  /** The tool's question to a person (status awaiting_input), and the answer once given. */
  question?: ElicitationRequest;
  answer?: InputAnswer;
  submitted?: Submission;
  /** What the agent got back from its call. */
  result?: ToolResult;
  createdAt: number;
  updatedAt: number;
  expiresAt?: number;
  resolvedAt?: number;
}

/** One tool in GET /api/tools (without ?format). */
export interface ToolInfo {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** The usual effect; with perCall each call's effect is judged from its input. */
  effect: Effect | 'per-call';
  perCall: boolean;
  category?: string;
  visible: boolean;
  /** Set for tools declared in the config. */
  executionType?: 'gateway' | 'external' | 'space' | 'internal';
  isAsync?: boolean;
  timeout?: number;
}

/** A person's answer to a tool's question (POST /api/tool-calls/:callId/answer), and who gave it. */
export type InputAnswer = ElicitationAnswer & { by?: string };
