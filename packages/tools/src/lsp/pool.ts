// Warm language servers, one per (server, workspace root): reused while in use, shut down when
// idle, started again when one has crashed. Shared by the LSP tools of one builtinTools() call.
import { ToolError } from '@toolbelt/core';
import type { ClientOptions, LspClient } from './client.js';
import type { ServerWorkspace } from './launch.js';
import type { ServerSpec } from './servers.js';

export interface PoolOptions extends ClientOptions {
  /** A server unused this long is shut down. */
  idleMs: number;
}

interface Entry {
  client: Promise<LspClient>;
  busy: number;
  timer?: NodeJS.Timeout;
}

export class LspPool {
  private readonly entries = new Map<string, Entry>();
  private disposed = false;
  /** Servers started so far (restarts included); for tests and metrics. */
  starts = 0;

  constructor(readonly opts: PoolOptions) {}

  /**
   * Runs `fn` with a live server for this root. If the server dies during `fn`, it is started
   * again and `fn` retried once; a second crash is reported.
   */
  async with<T>(
    spec: ServerSpec,
    root: string,
    signal: AbortSignal | undefined,
    fn: (client: LspClient) => Promise<T>,
    workspace?: ServerWorkspace,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const { entry, client } = await this.acquire(spec, root, workspace);
      try {
        return await fn(client);
      } catch (err) {
        if (client.alive || attempt > 0 || signal?.aborted) throw err;
      } finally {
        this.release(entry);
      }
    }
  }

  /** The live client for this root, if one is running (for tests and the benchmark). */
  async peek(spec: ServerSpec, root: string): Promise<LspClient | undefined> {
    const entry = this.entries.get(key(spec, root));
    return entry ? entry.client.catch(() => undefined) : undefined;
  }

  get size(): number {
    return this.entries.size;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.allSettled(
      all.map(async (e) => {
        clearTimeout(e.timer);
        await (await e.client).shutdown();
      }),
    );
  }

  /** `workspace` (its roots and protected paths) is what the sandbox of a server started now shows and hides. */
  private async acquire(
    spec: ServerSpec,
    root: string,
    workspace: ServerWorkspace | undefined,
  ): Promise<{ entry: Entry; client: LspClient }> {
    if (this.disposed)
      throw new ToolError('ABORTED', 'the language servers were shut down; no more LSP calls are taken');
    const k = key(spec, root);
    let entry = this.entries.get(k);
    if (entry) {
      const existing = await entry.client.catch(() => undefined);
      // Gone (crashed, killed) or failed to start: start it again.
      if (!existing?.alive && this.entries.get(k) === entry) {
        clearTimeout(entry.timer);
        this.entries.delete(k);
      }
      entry = this.entries.get(k);
    }
    if (!entry) {
      this.starts++;
      // Not tied to this caller's signal: other calls may be waiting on the same start.
      // The JSON-RPC and protocol libraries load with the first server, not with the tools.
      entry = {
        client: import('./client.js').then(({ LspClient }) =>
          LspClient.start(spec, root, this.opts, undefined, workspace),
        ),
        busy: 0,
      };
      this.entries.set(k, entry);
      entry.client.catch(() => {
        if (this.entries.get(k) === entry) this.entries.delete(k);
      });
    }
    entry.busy++;
    clearTimeout(entry.timer);
    try {
      return { entry, client: await entry.client };
    } catch (err) {
      entry.busy--;
      throw err;
    }
  }

  private release(entry: Entry): void {
    entry.busy--;
    if (entry.busy > 0 || this.disposed) return;
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      if (entry.busy > 0) return;
      for (const [k, e] of this.entries) if (e === entry) this.entries.delete(k);
      void entry.client.then((c) => c.shutdown()).catch(() => {});
    }, this.opts.idleMs);
    entry.timer.unref();
  }
}

const key = (spec: ServerSpec, root: string) => `${spec.name}\0${root}`;
