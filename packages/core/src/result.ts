// One result shape for every path: library, MCP and HTTP.

export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'json'; json: unknown }
  | { type: 'image'; data: string; mimeType: string };

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

export type ToolStatus = 'success' | 'error' | 'rejected' | 'pending';
export type ApprovedBy = 'auto' | 'user' | 'rule' | 'remembered';

export interface ToolResult {
  status: ToolStatus;
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
  error?: { code: ToolErrorCode; message: string; recoverable: boolean };
  /** Set when status is rejected: why, and the person's message for the model. */
  rejection?: { reason: string; userMessage?: string };
  /** Who let the call run. */
  approvedBy?: ApprovedBy;
}

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
): ToolResult {
  const result: ToolResult = {
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

export function rejectedResult(callId: string, tool: string, reason: string, userMessage?: string, durationMs = 0): ToolResult {
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
