// The gateway's HTTP API as types: the bodies it reads and writes and the events it streams. The
// gateway serves these and the client SDK reads them, both from here, so a change on one side that
// the other does not follow is a compile error. Types only: importing this costs nothing at run time,
// and the client needs nothing of the gateway to run.
import type { ApprovalDecision, ApprovalRequest, ApprovalScope } from './approval.js';
import type { ElicitationAnswer, ElicitationRequest } from './elicitation.js';
import type { ToolEvent } from './events.js';
import type { ExecutionLogEntry } from './executor/log.js';
import type { ProviderFormat, ProviderTool } from './formats.js';
import type { ToolResult } from './result.js';
import type { Effect } from './tool.js';
import type { SpaceMessage } from './wire-spaces.js';

export type * from './wire-spaces.js';
export type * from './wire-console.js';

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

interface InboxBase {
  id: number;
  agentId: string;
  createdAt: number;
  ackedAt?: number;
  /** The think cycle that took it (POST /api/agents/:agentId/cycles). */
  cycleId?: string;
}

/** A result that arrived after its agent stopped waiting (or an expiry notice). */
export interface ToolResultInboxMessage extends InboxBase {
  kind: 'tool_result';
  runId: string;
  callId: string;
  tool: string;
  /** The submitted result, or an error ("expired", or what the executor reported). */
  result?: unknown;
  error?: string;
}

/** A text message another member posted in a space this agent is in. */
export interface SpaceInboxMessage extends InboxBase {
  kind: 'message';
  spaceId: string;
  message: SpaceMessage;
}

/** What happened while the agent was busy: GET /api/agents/:agentId/inbox, and each think cycle. */
export type InboxMessage = ToolResultInboxMessage | SpaceInboxMessage;

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

// Events of GET /api/events: core's vocabulary plus the gateway's own, about calls whose result
// comes from outside and about the inbox.
interface EventBase {
  ts: number;
  sessionId: string;
  runId?: string;
  agentId?: string;
}

export type PendingEvent =
  /** A declared external/space tool waits for its result: an external executor should act. */
  | (EventBase & {
      type: 'pending.created';
      callId: string;
      tool: string;
      input: unknown;
      executionType: string;
      visible: boolean;
      /** waiting: the agent blocks up to the timeout; pending: the result goes to the inbox. */
      mode: 'waiting' | 'pending';
      expiresAt: number;
    })
  | (EventBase & { type: 'pending.resolved'; callId: string; tool: string; previous: 'waiting' | 'pending' })
  | (EventBase & { type: 'pending.expired'; callId: string; tool: string })
  | (EventBase & { type: 'inbox.added'; messageId: number; callId: string; tool: string })
  /** A tool asks a person a question (an MCP server's elicitation): answer with POST .../answer. */
  | (EventBase & { type: 'input.requested'; callId: string; tool: string; question: ElicitationRequest })
  | (EventBase & {
      type: 'input.answered';
      callId: string;
      tool: string;
      action: ElicitationAnswer['action'];
      by?: string;
    });

/**
 * Events of one space (also on GET /api/spaces/:spaceId/events, named there as the SDK names them:
 * message, tool.started, tool.streaming, tool.done, tool.error).
 */
export type SpaceEvent =
  /** A message was posted, or a tool message changed status (requires_action, complete, error). */
  | (EventBase & { type: 'space.message'; spaceId: string; message: SpaceMessage })
  | (EventBase & {
      type: 'space.tool';
      spaceId: string;
      phase: 'started' | 'done' | 'error';
      messageId: number;
      callId: string;
      tool: string;
      message: SpaceMessage;
    })
  | (EventBase & {
      type: 'space.tool';
      spaceId: string;
      phase: 'streaming';
      messageId: number;
      callId: string;
      tool: string;
      chunk: string;
    });

export type GatewayEvent = ToolEvent | PendingEvent | SpaceEvent;
export type GatewayEventType = GatewayEvent['type'];
/** An event as streamed: with its id, the resume point for Last-Event-ID. */
export type StreamedEvent = GatewayEvent & { id: number };

// Request bodies.

/** POST /api/runs/:runId/tool-calls */
export interface CallBody {
  agentId: string;
  name: string;
  input?: Record<string, unknown> | string;
  callId?: string;
  sessionId?: string;
  model?: string;
  /** Where in the conversation the call comes from (the task, what the model said): shown to whoever approves it. */
  context?: string;
}

/** POST /api/runs/:runId/tool-results: exactly one of result or error. */
export interface ResultBody {
  callId: string;
  result?: unknown;
  error?: string;
  /** The space the answer is given in: refused when the call was posted to another space. */
  spaceId?: string;
}

/** POST /api/tool-calls/:callId/approve */
export interface ApproveBody {
  scope?: ApprovalScope;
}

/** POST /api/tool-calls/:callId/reject: the message reaches the model. */
export interface RejectBody {
  message?: string;
}

/**
 * POST /api/tool-calls/:callId/answer: the person's answer to the call's question. accept with the
 * form's values (fields left out take their defaults), decline, or cancel.
 */
export type AnswerBody = ElicitationAnswer;

/** POST /api/agents/:agentId/inbox/ack */
export interface AckBody {
  ids: number[];
}

// Answers. A tool call is answered with its ToolResult (200, 404 or 422).

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

/** A person's answer to a tool's question (POST /api/tool-calls/:callId/answer), and who gave it. */
export type InputAnswer = ElicitationAnswer & { by?: string };

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
