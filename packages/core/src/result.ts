// One result shape for every path: library, MCP and HTTP.

export type ContentBlock =
  { type: 'text'; text: string } | { type: 'json'; json: unknown } | { type: 'image'; data: string; mimeType: string };

/** For a person, not the model. */
export type Display =
  | { kind: 'diff'; diff: string; path?: string }
  | { kind: 'table'; columns: string[]; rows: unknown[][] }
  | { kind: 'text'; text: string; ansi?: boolean };

export type ToolErrorCode =
  | 'INVALID_PARAMS'
  | 'UNKNOWN_TOOL'
  | 'PERMISSION_DENIED'
  | 'APPROVAL_REQUIRED'
  | 'TIMEOUT'
  | 'ABORTED'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'EXECUTION_FAILED';

export type ApprovedBy = 'auto' | 'user' | 'rule' | 'remembered';

/** What went wrong, by code: callers branch on `code`, never on the message text. */
export interface ResultError {
  code: ToolErrorCode;
  message: string;
  /** True when the same call may succeed if made again (a timeout, a dropped connection). */
  recoverable: boolean;
}

/** Why a person (or the approval's timeout) refused the call, and their message for the model. */
export interface Rejection {
  reason: string;
  userMessage?: string;
}

interface ResultBase {
  callId: string;
  tool: string;
  /** For the model. */
  content: ContentBlock[];
  /** For a person. */
  display?: Display;
  metadata?: Record<string, unknown>;
  /** Structured output, when the tool declares an output schema. */
  structured?: unknown;
  durationMs: number;
  /** Who let the call run. */
  approvedBy?: ApprovedBy;
}

// Each variant names the others' fields as `?: undefined`, so `r.error?.code` reads on any result
// while a check of `status` narrows `error` and `rejection` to present.
export interface SuccessResult extends ResultBase {
  status: 'success';
  error?: undefined;
  rejection?: undefined;
}

/** The call was accepted; its result comes later (a declared tool's inbox). */
export interface PendingResult extends ResultBase {
  status: 'pending';
  error?: undefined;
  rejection?: undefined;
}

export interface ErrorResult extends ResultBase {
  status: 'error';
  error: ResultError;
  rejection?: undefined;
}

export interface RejectedResult extends ResultBase {
  status: 'rejected';
  rejection: Rejection;
  error?: undefined;
}

/** Every call ends in one of these; `status` tells which. */
export type ToolResult = SuccessResult | PendingResult | ErrorResult | RejectedResult;
export type ToolStatus = ToolResult['status'];

export function textOf(result: Pick<ToolResult, 'content'>): string {
  let out = '';
  for (const block of result.content) {
    if (block.type === 'text') out += (out ? '\n' : '') + block.text;
    else if (block.type === 'json') out += (out ? '\n' : '') + JSON.stringify(block.json, null, 2);
    else out += (out ? '\n' : '') + `[image ${block.mimeType}, ${Math.round((block.data.length * 3) / 4)} bytes]`;
  }
  return out;
}

export function errorResult(
  callId: string,
  tool: string,
  code: ToolErrorCode,
  message: string,
  opts: { recoverable?: boolean; durationMs?: number; metadata?: Record<string, unknown> } = {},
): ErrorResult {
  const result: ErrorResult = {
    status: 'error',
    callId,
    tool,
    content: [{ type: 'text', text: message }],
    durationMs: opts.durationMs ?? 0,
    error: { code, message, recoverable: opts.recoverable ?? false },
  };
  if (opts.metadata) result.metadata = opts.metadata;
  return result;
}

export function rejectedResult(
  callId: string,
  tool: string,
  reason: string,
  userMessage?: string,
  durationMs = 0,
): RejectedResult {
  const text = userMessage ? `${reason}. The user said: ${userMessage}` : reason;
  return {
    status: 'rejected',
    callId,
    tool,
    content: [{ type: 'text', text }],
    durationMs,
    rejection: userMessage === undefined ? { reason } : { reason, userMessage },
  };
}
