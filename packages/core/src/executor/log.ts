// The execution log: one entry per finished call, written to any sink (memory, JSONL, SQL).
import type { ApprovedBy, ToolResult, ToolStatus } from '../result.js';

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
}

export interface LogSink {
  /** Must not throw and should not block: buffer and flush on your own schedule. */
  write(entry: ExecutionLogEntry): void;
  flush?(): Promise<void>;
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
