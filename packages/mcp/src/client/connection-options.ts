// What a connection to one configured server is given and reports: its options, its restart
// policy and its status.
import type { Progress, Tool as RemoteTool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../config.js';
import type { StdioLauncher, TransportKind } from './transport.js';

export type ServerStatus =
  | { state: 'disabled' }
  | { state: 'connecting'; attempt: number }
  | { state: 'connected'; transport: TransportKind; tools: number; pid?: number; restarts: number }
  /** `retryInMs` is set while another attempt is scheduled. */
  | { state: 'failed'; reason: string; attempts: number; retryInMs?: number };

export interface RestartPolicy {
  /** Consecutive failed attempts before giving up. Default 5. */
  maxAttempts: number;
  /** First delay; doubles per attempt, with jitter. Default 500 ms. */
  baseDelayMs: number;
  /** Default 30 s. */
  maxDelayMs: number;
}

export interface ConnectionOptions {
  name: string;
  config: McpServerConfig;
  /** Workspace roots: a stdio server starts in the first, or in its `cwd`, which must be inside them. */
  roots?: readonly string[];
  /** Default: the config's connectTimeoutMs, else 10 s. */
  connectTimeoutMs?: number;
  restart?: Partial<RestartPolicy>;
  /** Called with the full tool list after each connect and each tools/list_changed. */
  onTools(tools: RemoteTool[]): void;
  onStatus?(status: ServerStatus): void;
  /** Lines the server wrote to stderr, and our notes about it. */
  log?(line: string): void;
  /** Makes a stdio server's command line (the sandbox); default: the config's, with its limits. */
  launcher?: StdioLauncher;
}

export interface CallOptions {
  signal: AbortSignal;
  onprogress?: (p: Progress) => void;
}
