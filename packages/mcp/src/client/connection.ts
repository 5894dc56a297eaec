// One configured server: connect with a deadline, keep its tool list current, restart it with
// backoff when it dies, and run calls on it. Never throws out of start(); a failure is a status.
import type { Readable } from 'node:stream';
import { ToolError, VERSION } from '@toolbelt/core';
import type { McpServerConfig } from '../config.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callError, connectProblem } from './call-error.js';
import { coalesced } from './coalesce.js';
import { CLIENT_CAPABILITIES, type Asker } from './elicitation.js';
import { handleServerMessages } from './server-messages.js';
import { NeedsLoginError, needsLogin, oauthFor } from './oauth/provider.js';
import { serverCwd } from './cwd.js';
import { listAllTools, untilWoken, withDeadline } from './requests.js';
import { DEFAULT_RESTART, retryDelay, type RestartPolicy, type ServerStatus } from './status.js';
import { StderrTail } from './stderr.js';
import {
  httpTransport,
  launchStdio,
  shouldFallBackToSse,
  stdioTransport,
  transportKind,
  type StdioLaunch,
  type TransportKind,
} from './transport.js';
import type { CallOptions, ConnectionOptions } from './connection-options.js';

export type { RestartPolicy, ServerStatus } from './status.js';

export type { CallOptions, ConnectionOptions } from './connection-options.js';

const CLIENT_INFO = { name: 'toolbelt', version: VERSION };

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
  private readonly stderr: StderrTail;
  /** Askers of the calls in flight, latest last. */
  private readonly askers: Asker[] = [];

  constructor(private readonly opts: ConnectionOptions) {
    this.name = opts.name;
    this.config = opts.config;
    this.connectTimeoutMs = opts.connectTimeoutMs ?? opts.config.connectTimeoutMs ?? 10_000;
    this.restart = { ...DEFAULT_RESTART, ...opts.restart };
    this.stderr = new StderrTail(opts.log);
    this.state = opts.config.enabled === false ? { state: 'disabled' } : { state: 'connecting', attempt: 1 };
  }

  get status(): ServerStatus {
    return this.state;
  }

  /** The SDK client while connected (resources, prompts). */
  get remote(): Client | undefined {
    return this.state.state === 'connected' ? this.client : undefined;
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
    const asker = opts.elicit;
    if (asker) this.askers.push(asker);
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
      throw callError(err, { server: this.name, tool, idleMs, stderrNote: this.stderr.note() });
    } finally {
      if (asker) this.askers.splice(this.askers.lastIndexOf(asker), 1);
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

  /** The connected client; while a restart is under way, waits for it up to the connect timeout. */
  private async ready(signal: AbortSignal): Promise<Client> {
    if (this.state.state === 'connected' && this.client) return this.client;
    const restarting =
      this.state.state === 'connecting' || (this.state.state === 'failed' && this.state.retryInMs !== undefined);
    if (restarting && !this.closed) {
      await untilWoken(this.waiters, signal, this.connectTimeoutMs);
      if (this.state.state === 'connected' && this.client) return this.client;
    }
    signal.throwIfAborted();
    const why =
      this.state.state === 'failed'
        ? this.state.reason
        : this.state.state === 'disabled'
          ? 'it is disabled in the config'
          : 'it is still starting';
    throw new ToolError(
      'EXECUTION_FAILED',
      `MCP server "${this.name}" is not connected (${why}). Its tools are unavailable until it reconnects; use another tool or try again later.`,
      { recoverable: true },
    );
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
    const cwd =
      kind === 'stdio' && this.opts.roots?.length ? serverCwd(this.config.cwd, this.opts.roots) : this.config.cwd;
    if (typeof kind !== 'string' || typeof cwd === 'object') {
      // A config mistake does not fix itself: no retries.
      this.setStatus({
        state: 'failed',
        reason: `invalid config: ${typeof kind !== 'string' ? kind.problem : (cwd as { problem: string }).problem}`,
        attempts: 1,
      });
      return;
    }
    this.setStatus({ state: 'connecting', attempt: this.failures + 1 });
    let launched: StdioLaunch | undefined;
    try {
      launched =
        kind === 'stdio'
          ? await launchStdio(this.opts.launcher, this.name, { ...this.config, ...(cwd ? { cwd } : {}) })
          : undefined;
      await withDeadline(this.connect(kind, cwd, launched), this.connectTimeoutMs);
      if (this.closed) return void (await this.disconnect());
      this.failures = 0;
      const tools = await withDeadline(listAllTools(this.client!, this.connectTimeoutMs), this.connectTimeoutMs);
      if (this.closed) return void (await this.disconnect());
      this.opts.onTools(tools);
      this.setStatus({
        state: 'connected',
        transport: this.kind!,
        tools: tools.length,
        restarts: this.restarts,
        ...(this.pid ? { pid: this.pid } : {}),
      });
    } catch (err) {
      // Not awaited: a hung server must not hold up the caller past the connect timeout.
      void this.disconnect(true);
      if (this.closed) return;
      this.failures++;
      const hint = launched?.hint ? `; ${launched.hint}` : '';
      const reason = needsLogin(err)
        ? new NeedsLoginError(this.name).message
        : `${connectProblem(err, this.config.command)}${this.stderr.note()}${hint}`;
      this.opts.log?.(`connect failed: ${reason}`);
      // Only a sign-in fixes this: no retries until `toolbelt mcp login` and a reconnect.
      if (needsLogin(err)) return this.setStatus({ state: 'failed', reason, attempts: this.failures });
      this.scheduleRetry(reason);
    }
  }

  private scheduleRetry(reason: string): void {
    if (this.failures >= this.restart.maxAttempts) {
      this.setStatus({ state: 'failed', reason, attempts: this.failures });
      return;
    }
    const delay = retryDelay(this.restart, this.failures);
    this.setStatus({ state: 'failed', reason, attempts: this.failures, retryInMs: delay });
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.restarts++;
      void this.attempt();
    }, delay);
    this.timer.unref();
  }

  private async connect(kind: TransportKind, cwd: string | undefined, launched?: StdioLaunch): Promise<void> {
    try {
      await this.open(kind, cwd, launched);
    } catch (err) {
      if (kind !== 'http' || !shouldFallBackToSse(err)) throw err;
      void this.disconnect();
      this.opts.log?.(`Streamable HTTP refused (${(err as Error).message}); trying the SSE transport`);
      await this.open('sse');
    }
  }

  private async open(kind: TransportKind, cwd?: string, launched?: StdioLaunch): Promise<void> {
    const transport =
      kind === 'stdio'
        ? await stdioTransport({ ...this.config, ...(cwd ? { cwd } : {}) }, launched)
        : await httpTransport(this.config, kind, oauthFor(this.name, this.config, this.opts.oauthDir));
    if (kind === 'stdio') this.stderr.follow((transport as StdioClientTransport).stderr as Readable | null);
    const client = new Client(CLIENT_INFO, { capabilities: CLIENT_CAPABILITIES });
    client.onerror = (err) => this.opts.log?.(`transport error: ${err.message}`);
    this.client = client;
    this.transport = transport;
    this.kind = kind;
    await client.connect(transport, { timeout: this.connectTimeoutMs });
    const { onLog, log } = this.opts;
    handleServerMessages(client, {
      server: this.name,
      asker: () => this.askers.at(-1),
      onToolsChanged: () => void this.refresh(),
      onLog,
      log,
    });
    client.onclose = () => {
      if (this.client !== client || this.closed) return;
      this.client = undefined;
      this.transport = undefined;
      this.opts.log?.(`connection closed${this.stderr.note()}; restarting`);
      this.failures = 1;
      this.scheduleRetry(`the server closed the connection${this.stderr.note()}`);
    };
  }

  /** tools/list_changed: fetch the list again; changes that arrive meanwhile cause one more fetch. */
  private readonly refresh = coalesced(async () => {
    if (this.closed || !this.client) return;
    try {
      const tools = await listAllTools(this.client, this.connectTimeoutMs);
      if (this.closed || this.state.state !== 'connected') return;
      this.opts.onTools(tools);
      this.setStatus({ ...this.state, tools: tools.length });
    } catch (err) {
      this.opts.log?.(`tools/list after list_changed failed: ${(err as Error).message}`);
    }
  });

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
