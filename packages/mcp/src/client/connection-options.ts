// What an McpConnection is given: its server's config, where it runs, and who hears about it.
import type { LoggingMessageNotification, Progress, Tool as RemoteTool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../config.js';
import type { Asker } from './elicitation.js';
import type { RestartPolicy, ServerStatus } from './status.js';
import type { StdioLauncher } from './transport.js';

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
  /** The server's log notifications (notifications/message). */
  onLog?(message: LoggingMessageNotification['params']): void;
  /** Lines the server wrote to stderr, and our notes about it. */
  log?(line: string): void;
  /** Where OAuth state of http servers is kept (`.toolbelt/oauth`); without it no OAuth. */
  oauthDir?: string;
  /** Makes a stdio server's command line (the sandbox); default: the config's, with its limits. */
  launcher?: StdioLauncher;
}

export interface CallOptions {
  signal: AbortSignal;
  onprogress?: (p: Progress) => void;
  /** Asks the call's person when the server elicits during the call. */
  elicit?: Asker;
}
