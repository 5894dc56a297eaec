// One configured server: connect with a deadline, keep its tool list current, restart it with
// backoff when it dies, and run calls on it. Never throws out of start(); a failure is a status.
import type { Readable } from 'node:stream';
import { ToolError } from '@toolbelt/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema, type CallToolResult, type Tool as RemoteTool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../config.js';
import type { CallOptions, ConnectionOptions, RestartPolicy, ServerStatus } from './connection-options.js';
import { serverCwd } from './cwd.js';
import { StderrTail } from './stderr.js';
import { httpTransport, shouldFallBackToSse, stdioTransport, transportKind, type TransportKind } from './transport.js';

export type { CallOptions, ConnectionOptions, RestartPolicy, ServerStatus } from './connection-options.js';

const CLIENT_INFO = { name: 'toolbelt', version: '0.1.0' };

export class McpConnection {
  readonly name: string;
  readonly config: McpServerConfig;
  private state: ServerStatus;
  private client: Client | undefined;
  private transport: Transport | undefined;
  private kind: TransportKind | undefined;
  private readonly restart: RestartPolicy;
  private readonly connectTimeoutMs: number;
  private failures = 0;
  private restarts = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private waiters = new Set<() => void>();
  private refreshing: Promise<void> | undefined;
  private refreshAgain = false;
  private readonly stderr: StderrTail;

  constructor(private readonly opts: ConnectionOptions) {
    this.name = opts.name;
    this.config = opts.config;
    this.connectTimeoutMs = opts.connectTimeoutMs ?? opts.config.connectTimeoutMs ?? 10_000;
    this.restart = { maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 30_000, ...opts.restart };
    this.stderr = new StderrTail(opts.log);
    this.state = opts.config.enabled === false ? { state: 'disabled' } : { state: 'connecting', attempt: 1 };
  }

  get status(): ServerStatus {
    return this.state;
  }

  /** The server process id, for stdio servers that are running. */
  get pid(): number | undefined {
    return (this.transport as StdioClientTransport | undefined)?.pid ?? undefined;
  }

  /** The first connection attempt; resolves (never rejects) once it succeeded or failed. */
  async start(): Promise<void> {
    if (this.state.state === 'disabled' || this.closed) return;
    await this.attempt();
  }

  async call(tool: string, args: Record<string, unknown>, opts: CallOptions): Promise<CallToolResult> {
    const client = await this.ready(opts.signal);
    const idleMs = this.config.timeoutMs ?? 60_000;
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, {
        signal: opts.signal,
        timeout: idleMs,
        // A server that reports progress is working: each report restarts the idle timeout.
        resetTimeoutOnProgress: true,
        ...(opts.onprogress ? { onprogress: opts.onprogress } : {}),
      });
      return result as CallToolResult;
    } catch (err) {
      if (opts.signal.aborted) throw err;
      throw this.callError(err, tool, idleMs);
    }
  }

  /** Drops the connection (if any) and connects afresh, with a new restart budget. */
  async reconnect(): Promise<void> {
    if (this.closed || this.state.state === 'disabled') return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.failures = 0;
    await this.disconnect();
    await this.attempt();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.wake();
    await this.disconnect();
  }

  private callError(err: unknown, tool: string, idleMs: number): ToolError {
    const where = `MCP server "${this.name}"`;
    if (err instanceof McpError) {
      if (err.code === ErrorCode.RequestTimeout) {
        return new ToolError('TIMEOUT', `${tool} on ${where} sent no result or progress for ${idleMs} ms and was cancelled. Retry with less work per call, or raise "timeoutMs" for this server in toolbelt.config.json.`, { recoverable: true });
      }
      if (err.code === ErrorCode.ConnectionClosed) {
        return new ToolError('EXECUTION_FAILED', `${where} closed the connection during the ${tool} call (the server exited${this.stderr.note()}). toolbelt is restarting it; call again in a moment.`, { recoverable: true });
      }
      if (err.code === ErrorCode.InvalidParams) {
        return new ToolError('INVALID_PARAMS', `${where} refused the arguments for ${tool}: ${err.message}. Fix them and call again.`, { recoverable: true });
      }
    }
    const message = err instanceof Error ? err.message : String(err);
    return new ToolError('EXECUTION_FAILED', `${where} failed the ${tool} call: ${message}`);
  }

  /** The connected client; while a restart is under way, waits for it up to the connect timeout. */
  private async ready(signal: AbortSignal): Promise<Client> {
    if (this.state.state === 'connected' && this.client) return this.client;
    const restarting = this.state.state === 'connecting' || (this.state.state === 'failed' && this.state.retryInMs !== undefined);
    if (restarting && !this.closed) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(t);
          signal.removeEventListener('abort', done);
          this.waiters.delete(done);
          resolve();
        };
        const t = setTimeout(done, this.connectTimeoutMs);
        signal.addEventListener('abort', done, { once: true });
        this.waiters.add(done);
      });
      if (this.state.state === 'connected' && this.client) return this.client;
    }
    signal.throwIfAborted();
    const why = this.state.state === 'failed' ? this.state.reason : this.state.state === 'disabled' ? 'it is disabled in the config' : 'it is still starting';
    throw new ToolError('EXECUTION_FAILED', `MCP server "${this.name}" is not connected (${why}). Its tools are unavailable until it reconnects; use another tool or try again later.`, { recoverable: true });
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }

  private setStatus(status: ServerStatus): void {
    this.state = status;
    this.opts.onStatus?.(status);
    if (status.state === 'connected' || status.state === 'failed') this.wake();
  }

  private async attempt(): Promise<void> {
    const kind = transportKind(this.config);
    const cwd = kind === 'stdio' && this.opts.roots?.length ? serverCwd(this.config.cwd, this.opts.roots) : this.config.cwd;
    if (typeof kind !== 'string' || typeof cwd === 'object') {
      // A config mistake does not fix itself: no retries.
      this.setStatus({ state: 'failed', reason: `invalid config: ${typeof kind !== 'string' ? kind.problem : (cwd as { problem: string }).problem}`, attempts: 1 });
      return;
    }
    this.setStatus({ state: 'connecting', attempt: this.failures + 1 });
    try {
      await this.withDeadline(this.connect(kind, cwd));
      if (this.closed) return void (await this.disconnect());
      this.failures = 0;
      const tools = await this.withDeadline(this.listTools());
      if (this.closed) return void (await this.disconnect());
      this.opts.onTools(tools);
      this.setStatus({ state: 'connected', transport: this.kind!, tools: tools.length, restarts: this.restarts, ...(this.pid ? { pid: this.pid } : {}) });
    } catch (err) {
      // Not awaited: a hung server must not hold up the caller past the connect timeout.
      void this.disconnect(true);
      if (this.closed) return;
      this.failures++;
      const reason = `${this.explain(err)}${this.stderr.note()}`;
      this.opts.log?.(`connect failed: ${reason}`);
      this.scheduleRetry(reason);
    }
  }

  private explain(err: unknown): string {
    const e = err as NodeJS.ErrnoException;
    if (e?.code === 'ENOENT' && e.syscall?.startsWith('spawn')) {
      return `command "${this.config.command}" was not found (${e.message}); fix "command" for this server in mcpServers or install it`;
    }
    return e instanceof Error ? e.message : String(err);
  }

  private scheduleRetry(reason: string): void {
    if (this.failures >= this.restart.maxAttempts) {
      this.setStatus({ state: 'failed', reason, attempts: this.failures });
      return;
    }
    const exp = Math.min(this.restart.maxDelayMs, this.restart.baseDelayMs * 2 ** (this.failures - 1));
    const delay = Math.round(exp / 2 + Math.random() * (exp / 2));
    this.setStatus({ state: 'failed', reason, attempts: this.failures, retryInMs: delay });
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.restarts++;
      void this.attempt();
    }, delay);
    this.timer.unref();
  }

  private async connect(kind: TransportKind, cwd: string | undefined): Promise<void> {
    try {
      await this.open(kind, cwd);
    } catch (err) {
      if (kind !== 'http' || !shouldFallBackToSse(err)) throw err;
      void this.disconnect();
      this.opts.log?.(`Streamable HTTP refused (${(err as Error).message}); trying the SSE transport`);
      await this.open('sse');
    }
  }

  private async open(kind: TransportKind, cwd?: string): Promise<void> {
    const launch = this.opts.launcher ? { server: this.name, launcher: this.opts.launcher } : undefined;
    const transport = kind === 'stdio' ? await stdioTransport({ ...this.config, ...(cwd ? { cwd } : {}) }, launch) : await httpTransport(this.config, kind);
    if (kind === 'stdio') this.stderr.follow((transport as StdioClientTransport).stderr as Readable | null);
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    client.onerror = (err) => this.opts.log?.(`transport error: ${err.message}`);
    this.client = client;
    this.transport = transport;
    this.kind = kind;
    await client.connect(transport, { timeout: this.connectTimeoutMs });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void this.refresh());
    client.onclose = () => {
      if (this.client !== client || this.closed) return;
      this.client = undefined;
      this.transport = undefined;
      this.opts.log?.(`connection closed${this.stderr.note()}; restarting`);
      this.failures = 1;
      this.scheduleRetry(`the server closed the connection${this.stderr.note()}`);
    };
  }

  private async listTools(): Promise<RemoteTool[]> {
    const client = this.client!;
    const tools: RemoteTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, { timeout: this.connectTimeoutMs });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  /** tools/list_changed: fetch the list again; changes that arrive meanwhile cause one more fetch. */
  private refresh(): Promise<void> {
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false;
        try {
          const tools = await this.listTools();
          if (this.closed || this.state.state !== 'connected') return;
          this.opts.onTools(tools);
          this.setStatus({ ...this.state, tools: tools.length });
        } catch (err) {
          this.opts.log?.(`tools/list after list_changed failed: ${(err as Error).message}`);
        }
      } while (this.refreshAgain);
    })().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private withDeadline<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${this.connectTimeoutMs} ms (connectTimeoutMs)`)), this.connectTimeoutMs);
    });
    return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
  }

  /** `force`: the server misbehaved, so it gets SIGTERM now rather than after a 2 s grace period. */
  private async disconnect(force = false): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    const pid = force ? this.pid : undefined;
    this.client = undefined;
    this.transport = undefined;
    if (pid) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // Already exited.
      }
    }
    try {
      if (client) await client.close();
      else await transport?.close();
    } catch {
      // Already gone.
    }
  }
}
