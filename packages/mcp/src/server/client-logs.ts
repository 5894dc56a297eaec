// MCP logging for toolbelt's own clients: each client picks its level (logging/setLevel) and gets
// log notifications at or above it — its calls' tool output (stdout info, stderr notice), and
// server-side warnings (a proxied server unavailable, the sandbox missing, an upstream server's
// own log lines). Until a client sets a level it gets warnings and worse, not tool output.
import type { Executor, ToolEvent } from '@toolbelt/core';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { LoggingLevelSchema, SetLevelRequestSchema, type LoggingLevel } from '@modelcontextprotocol/sdk/types.js';

const SEVERITY = new Map<LoggingLevel, number>(LoggingLevelSchema.options.map((level, i) => [level, i]));
const DEFAULT_LEVEL: LoggingLevel = 'warning';
const MAX_LOG_CHARS = 4000;

const severity = (level: LoggingLevel) => SEVERITY.get(level) ?? 0;

export class ClientLogs {
  private readonly levels = new WeakMap<Server, LoggingLevel>();
  private stopListening: (() => void) | undefined;

  constructor(
    private readonly executor: Executor,
    /** The client connection a call came from, while it runs. */
    private readonly serverOf: (callId: string) => Server | undefined,
  ) {}

  /** Answers this client's logging/setLevel. */
  install(server: Server): void {
    server.setRequestHandler(SetLevelRequestSchema, (request) => {
      this.levels.set(server, request.params.level);
      // Tool output is info or notice: listen to the executor only once some client wants it.
      if (severity(request.params.level) <= severity('notice')) this.listen();
      return {};
    });
  }

  /** One log notification to one client, if its level lets it through. */
  send(server: Server, level: LoggingLevel, data: unknown, logger?: string): void {
    if (severity(level) < severity(this.levels.get(server) ?? DEFAULT_LEVEL)) return;
    const shown = typeof data === 'string' && data.length > MAX_LOG_CHARS ? `${data.slice(0, MAX_LOG_CHARS)}...` : data;
    server.sendLoggingMessage({ level, data: shown, ...(logger ? { logger } : {}) }).catch(() => {});
  }

  close(): void {
    this.stopListening?.();
    this.stopListening = undefined;
  }

  private listen(): void {
    this.stopListening ??= this.executor.events.on((e) => this.forward(e));
  }

  private forward(e: ToolEvent): void {
    if (e.type !== 'tool.output') return;
    const server = this.serverOf(e.callId);
    if (server) this.send(server, e.stream === 'stderr' ? 'notice' : 'info', e.chunk, e.tool);
  }
}
