// One language server process and the JSON-RPC connection to it: start, initialize, requests
// with a deadline and cancellation, and a clean shutdown. Documents live in documents.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { basename } from 'node:path';
import { ToolError } from '@toolbelt/core';
import type {
  InitializeParams,
  ProtocolConnection,
  PublishDiagnosticsParams,
  ServerCapabilities,
} from 'vscode-languageserver-protocol';
// A CommonJS package: its named exports are read from the default export.
import protocol from 'vscode-languageserver-protocol/node';
import { serverStartError, unconfinedLauncher, type Launcher, type ServerWorkspace } from './launch.js';
import { Documents } from './documents.js';
import type { ServerSpec } from './servers.js';

const { CancellationTokenSource, createProtocolConnection, StreamMessageReader, StreamMessageWriter } = protocol;

export interface ClientOptions {
  /** Longest wait for any one request (initialize included). */
  requestTimeoutMs: number;
  /** How a server is started; default: as configured, without a sandbox, in a scrubbed environment. */
  launch?: Launcher;
}

export class LspClient {
  readonly documents: Documents;
  capabilities: ServerCapabilities = {};
  private exitInfo: string | undefined;
  private stderrTail = '';
  /** Rejecters of requests in flight, all called when the process exits. */
  private readonly inFlight = new Set<(err: ToolError) => void>();
  readonly exited: Promise<void>;

  private constructor(
    readonly spec: ServerSpec,
    readonly root: string,
    private readonly proc: ChildProcess,
    readonly connection: ProtocolConnection,
    private readonly opts: ClientOptions,
    private readonly sandboxed: boolean,
  ) {
    this.documents = new Documents(connection, spec, () => this.ping());
    proc.stderr!.on('data', (b: Buffer) => {
      this.stderrTail = (this.stderrTail + b.toString('utf8')).slice(-2000);
    });
    this.exited = new Promise((resolve) => {
      proc.once('exit', (code, signal) => {
        this.exitInfo = signal ? `killed by ${signal}` : `exit code ${code}`;
        for (const reject of this.inFlight)
          reject(new ToolError('EXECUTION_FAILED', this.describeExit(), { recoverable: true }));
        connection.dispose();
        resolve();
      });
    });
  }

  static async start(
    spec: ServerSpec,
    root: string,
    opts: ClientOptions,
    signal?: AbortSignal,
    workspace?: ServerWorkspace,
  ): Promise<LspClient> {
    const launch = await (opts.launch ?? unconfinedLauncher())(
      spec,
      root,
      workspace ?? { roots: [root], protectedPaths: [] },
    );
    const proc = spawn(launch.file, launch.args, { cwd: root, stdio: ['pipe', 'pipe', 'pipe'], env: launch.env });
    const spawned = await new Promise<Error | undefined>((resolve) => {
      proc.once('spawn', () => resolve(undefined));
      proc.once('error', (e) => resolve(e));
    });
    if (spawned) throw serverStartError(spec, spawned);
    proc.on('error', () => {}); // later errors show up as exit
    proc.stdin!.on('error', () => {}); // writes after a crash
    const connection = createProtocolConnection(
      new StreamMessageReader(proc.stdout!),
      new StreamMessageWriter(proc.stdin!),
    );
    const client = new LspClient(spec, root, proc, connection, opts, launch.sandboxed ?? false);
    client.answerServerRequests();
    connection.listen();
    try {
      await client.initialize(signal);
    } catch (err) {
      client.kill();
      throw err;
    }
    return client;
  }

  get alive(): boolean {
    return this.exitInfo === undefined;
  }

  /** Why the process is gone, with the end of what it wrote to stderr. */
  describeExit(): string {
    const tail = this.stderrTail.trim().split('\n').slice(-5).join('\n');
    return `language server "${this.spec.name}" exited (${this.exitInfo ?? 'still running'})${tail ? `: ${tail}` : ''}`;
  }

  /** A request with a deadline; abort or timeout sends $/cancelRequest. A crash rejects it. */
  async request<R>(
    method: string,
    params: unknown,
    signal?: AbortSignal,
    timeoutMs = this.opts.requestTimeoutMs,
  ): Promise<R> {
    if (!this.alive) throw new ToolError('EXECUTION_FAILED', this.describeExit(), { recoverable: true });
    const cancel = new CancellationTokenSource();
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    let onExit: ((err: ToolError) => void) | undefined;
    const stop = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        cancel.cancel();
        reject(
          new ToolError(
            'TIMEOUT',
            `${this.spec.name} did not answer ${method} within ${+(timeoutMs / 1000).toFixed(1)} s; it may still be loading the project, so try again`,
            { recoverable: true },
          ),
        );
      }, timeoutMs);
      onAbort = () => {
        cancel.cancel();
        reject(new ToolError('ABORTED', `${method} was cancelled`));
      };
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
      onExit = reject;
      this.inFlight.add(reject);
    });
    try {
      return await Promise.race([this.connection.sendRequest<R>(method, params, cancel.token), stop]);
    } catch (err) {
      if (err instanceof ToolError) throw err;
      if (!this.alive) throw new ToolError('EXECUTION_FAILED', this.describeExit(), { recoverable: true });
      throw new ToolError('EXECUTION_FAILED', `${this.spec.name} failed ${method}: ${(err as Error).message}`);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      if (onExit) this.inFlight.delete(onExit);
      cancel.dispose();
    }
  }

  /**
   * A round trip: everything the server sent before answering has arrived. Requests whose method
   * starts with "$/" must be answered with MethodNotFound, so any server answers this one.
   */
  async ping(): Promise<void> {
    await this.request('$/toolbelt/ping', null).catch((err: ToolError) => {
      if (err.code !== 'EXECUTION_FAILED' || !this.alive) throw err;
    });
  }

  /** Asks politely, then kills. */
  async shutdown(graceMs = 2000): Promise<void> {
    if (!this.alive) return;
    try {
      await this.request('shutdown', null, undefined, graceMs);
      await this.connection.sendNotification('exit');
      await Promise.race([this.exited, delay(graceMs)]);
    } catch {
      // unresponsive: killed below
    }
    this.kill();
    await Promise.race([this.exited, delay(graceMs)]);
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.alive) this.proc.kill(signal);
  }

  get pid(): number | undefined {
    return this.proc.pid;
  }

  private async initialize(signal?: AbortSignal): Promise<void> {
    const rootUri = pathToFileURL(this.root).href;
    const params: InitializeParams = {
      // A server exits when the process with this id is gone; in the sandbox's pid namespace
      // toolbelt's id names no process (or another one). Its stdin closing ends it there.
      processId: this.sandboxed ? null : process.pid,
      clientInfo: { name: 'toolbelt' },
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: basename(this.root) }],
      capabilities: {
        general: { positionEncodings: ['utf-16'] },
        window: { workDoneProgress: true },
        workspace: { configuration: true, workspaceFolders: true },
        textDocument: {
          synchronization: { dynamicRegistration: false, didSave: false },
          publishDiagnostics: { relatedInformation: false, versionSupport: true },
          diagnostic: { dynamicRegistration: false },
          hover: { contentFormat: ['markdown', 'plaintext'] },
          definition: { linkSupport: true },
          references: {},
          documentSymbol: { hierarchicalDocumentSymbolSupport: true },
        },
      },
      initializationOptions: this.spec.initializationOptions ?? {},
    };
    const result = await this.request<{ capabilities: ServerCapabilities }>('initialize', params, signal);
    this.capabilities = result.capabilities ?? {};
    await this.connection.sendNotification('initialized', {});
  }

  private answerServerRequests(): void {
    const c = this.connection;
    c.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => null));
    c.onRequest('workspace/workspaceFolders', () => [
      { uri: pathToFileURL(this.root).href, name: basename(this.root) },
    ]);
    c.onRequest('window/workDoneProgress/create', () => null);
    c.onRequest('client/registerCapability', () => null);
    c.onRequest('client/unregisterCapability', () => null);
    c.onRequest('window/showMessageRequest', () => null);
    c.onRequest('workspace/applyEdit', () => ({
      applied: false,
      failureReason: 'toolbelt applies no edits from a language server',
    }));
    c.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) =>
      this.documents.onDiagnostics(p),
    );
    for (const m of ['window/logMessage', 'window/showMessage', 'telemetry/event', '$/progress', '$/logTrace'])
      c.onNotification(m, () => {});
    c.onError(() => {});
    c.onClose(() => {});
  }
}

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());
