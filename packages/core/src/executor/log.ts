// The execution log: one entry per finished call, written to any sink (memory, JSONL, SQL).
import type { CallOrigin } from '../approval.js';
import type { ApprovedBy, ToolResult, ToolStatus } from '../result.js';
import type { CallRequest } from './executor.js';
import { truncateText } from './truncate.js';

/** A log keeps what a call returned, not a second copy of every large file read: text is cut. */
const LOG_TEXT_LIMIT = 2000;

export interface ExecutionLogEntry {
  callId: string;
  tool: string;
  params: unknown;
  status: ToolStatus;
  result?: ToolResult['content'];
  error?: ToolResult['error'];
  durationMs: number;
  /** ISO 8601. */
  timestamp: string;
  approvedBy?: ApprovedBy;
  sessionId: string;
  runId?: string;
  agentId?: string;
  /** The front end the call came from (absent in entries older than this field). */
  origin?: CallOrigin;
  /** Listings only: params and result were too large to list; they are cut to a preview. */
  truncated?: { fields: string[]; size: number; href: string };
}

export interface LogSink {
  /** Must not throw and should not block: buffer and flush on your own schedule. */
  write(entry: ExecutionLogEntry): void;
  flush?(): Promise<void>;
}

/** Every sink front ends contribute (the runtime's file, the gateway's store), written as one. */
export class LogSinks implements LogSink {
  private sinks: readonly LogSink[] = [];

  constructor(first?: LogSink) {
    if (first) this.sinks = [first];
  }

  get size(): number {
    return this.sinks.length;
  }

  /** Entries go to `sink` too until the returned function is called. */
  add(sink: LogSink): () => void {
    this.sinks = [...this.sinks, sink];
    return () => void (this.sinks = this.sinks.filter((s) => s !== sink));
  }

  write(entry: ExecutionLogEntry): void {
    for (const sink of this.sinks) sink.write(entry);
  }

  async flush(): Promise<void> {
    await Promise.all(this.sinks.map((s) => s.flush?.()));
  }
}

/** Keeps the last `capacity` entries in memory. */
export class MemoryLogSink implements LogSink {
  readonly entries: ExecutionLogEntry[] = [];
  constructor(private readonly capacity = 10_000) {}
  write(entry: ExecutionLogEntry): void {
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }
}

/**
 * What the log leaves out. The log holds call inputs (whole files written, edits made) and results
 * (files read): a workspace whose files must not be copied elsewhere names the parameters to redact,
 * and can keep results out altogether.
 */
export interface LogRedaction {
  /** Parameter names whose values are logged as `[redacted: N chars]`, at any depth (`content`, `new_string`). */
  params?: readonly string[];
  /** Log what calls returned. Default true. */
  results?: boolean;
}

function redact(value: unknown, names: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => redact(v, names));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] =
      names.has(key) && v !== undefined
        ? `[redacted: ${(typeof v === 'string' ? v : JSON.stringify(v)).length} chars]`
        : redact(v, names);
  }
  return out;
}

export function logEntry(
  req: CallRequest,
  params: unknown,
  result: ToolResult,
  redaction: LogRedaction = {},
): ExecutionLogEntry {
  const names = new Set(redaction.params ?? []);
  const entry: ExecutionLogEntry = {
    callId: result.callId,
    tool: result.tool,
    params: names.size ? redact(params, names) : params,
    status: result.status,
    durationMs: result.durationMs,
    timestamp: new Date().toISOString(),
    sessionId: req.sessionId ?? 'default',
    origin: req.origin ?? 'library',
  };
  if (result.status === 'success' && redaction.results !== false) entry.result = forTheLog(result.content);
  if (result.error) entry.error = result.error;
  if (result.approvedBy) entry.approvedBy = result.approvedBy;
  if (req.runId) entry.runId = req.runId;
  if (req.agentId) entry.agentId = req.agentId;
  return entry;
}

function forTheLog(content: ToolResult['content']): ToolResult['content'] {
  let small = true;
  for (const block of content) if (block.type !== 'text' || block.text.length > LOG_TEXT_LIMIT) small = false;
  if (small) return content;
  return content.map((block) => {
    if (block.type === 'text')
      return block.text.length > LOG_TEXT_LIMIT
        ? { type: 'text', text: truncateText(block.text, LOG_TEXT_LIMIT).text }
        : block;
    if (block.type === 'image')
      return { type: 'text', text: `[image ${block.mimeType}, ${Math.round((block.data.length * 3) / 4)} bytes]` };
    return block;
  });
}
