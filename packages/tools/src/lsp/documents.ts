// The files a language server has open, kept equal to the disk, and the diagnostics it publishes
// for them. Opening is serialized so two calls never open the same file twice.
import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Diagnostic, ProtocolConnection, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import type { ServerSpec } from './servers.js';

export interface OpenDoc {
  path: string;
  uri: string;
  version: number;
  text: string;
  /** Bumped each time the file is (re)opened: diagnostics are only trusted for the current one. */
  generation: number;
  mtimeMs: number;
  size: number;
  lastUsed: number;
}

interface Published {
  generation: number;
  diagnostics: Diagnostic[];
  at: number;
}

const MAX_OPEN = 64;

export class Documents {
  private readonly open = new Map<string, OpenDoc>();
  private readonly published = new Map<string, Published>();
  private readonly listeners = new Map<string, Set<() => void>>();
  private generation = 0;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly connection: ProtocolConnection,
    private readonly spec: ServerSpec,
    /** A round trip to the server: what it sent before has arrived. */
    private readonly barrier: () => Promise<void>,
  ) {}

  /**
   * Opens the file or brings it up to date with the disk, after refreshing every other open
   * file that changed. `fresh` reopens it so the server publishes diagnostics anew.
   */
  sync(path: string, opts: { fresh?: boolean } = {}): Promise<OpenDoc> {
    const run = this.queue.then(() => this.doSync(path, opts.fresh ?? false));
    this.queue = run.catch(() => {});
    return run;
  }

  get openCount(): number {
    return this.open.size;
  }

  onDiagnostics(p: PublishDiagnosticsParams): void {
    let path: string;
    try {
      path = fileURLToPath(p.uri);
    } catch {
      return;
    }
    const doc = this.open.get(path);
    if (!doc || (p.version !== undefined && p.version !== null && p.version < doc.version)) return;
    this.published.set(path, { generation: doc.generation, diagnostics: p.diagnostics, at: Date.now() });
    for (const wake of this.listeners.get(path) ?? []) wake();
  }

  /**
   * Diagnostics for the document's current generation once the server has gone quiet about it
   * for `settleMs`; undefined when it published nothing within `timeoutMs`.
   */
  async diagnostics(
    doc: OpenDoc,
    opts: { timeoutMs: number; settleMs: number; signal?: AbortSignal },
  ): Promise<Diagnostic[] | undefined> {
    const started = Date.now();
    const deadline = started + opts.timeoutMs;
    let settle = opts.settleMs;
    for (;;) {
      opts.signal?.throwIfAborted();
      const got = this.published.get(doc.path);
      const now = Date.now();
      if (got && got.generation === doc.generation) {
        // A server publishes syntax errors first and type errors later; a server slow to publish
        // the first (a project loading, a loaded machine) is as slow to publish the next, so the
        // quiet to wait for grows with it (half the wait for the first, at most 3 s).
        if (got.at > started) settle = Math.max(settle, Math.min(3_000, (got.at - started) / 2));
        const quiet = now - got.at;
        if (quiet >= settle) return got.diagnostics;
        await this.nextPublish(doc.path, settle - quiet, opts.signal);
        continue;
      }
      if (now >= deadline) return undefined;
      await this.nextPublish(doc.path, deadline - now, opts.signal);
    }
  }

  private nextPublish(path: string, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const set = this.listeners.get(path) ?? new Set();
      this.listeners.set(path, set);
      const done = () => {
        clearTimeout(timer);
        set.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      set.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  private async doSync(path: string, fresh: boolean): Promise<OpenDoc> {
    let othersChanged = false;
    for (const doc of [...this.open.values()]) if (doc.path !== path && (await this.refresh(doc))) othersChanged = true;
    const text = await readFile(path, 'utf8');
    const info = await stat(path);
    const doc = this.open.get(path);
    if (doc && doc.text === text && !fresh && !othersChanged) {
      doc.lastUsed = Date.now();
      return doc;
    }
    if (doc) {
      await this.close(doc);
      // Whatever the server published for the closed document has now arrived and been dropped.
      await this.barrier();
    }
    await this.evict();
    const opened: OpenDoc = {
      path,
      uri: pathToFileURL(path).href,
      version: (doc?.version ?? 0) + 1,
      text,
      generation: ++this.generation,
      mtimeMs: info.mtimeMs,
      size: info.size,
      lastUsed: Date.now(),
    };
    this.open.set(path, opened);
    const languageId = this.spec.languageIds[extname(path).toLowerCase()] ?? 'plaintext';
    await this.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri: opened.uri, languageId, version: opened.version, text },
    });
    return opened;
  }

  /** Sends the disk's content for a file that changed; closes one that is gone. True if it changed. */
  private async refresh(doc: OpenDoc): Promise<boolean> {
    const info = await stat(doc.path).catch(() => undefined);
    if (!info) {
      await this.close(doc);
      return true;
    }
    if (info.mtimeMs === doc.mtimeMs && info.size === doc.size) return false;
    const text = await readFile(doc.path, 'utf8');
    doc.mtimeMs = info.mtimeMs;
    doc.size = info.size;
    if (text === doc.text) return false;
    doc.text = text;
    doc.version++;
    await this.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: doc.uri, version: doc.version },
      contentChanges: [{ text }],
    });
    return true;
  }

  private async close(doc: OpenDoc): Promise<void> {
    this.open.delete(doc.path);
    this.published.delete(doc.path);
    await this.connection.sendNotification('textDocument/didClose', { textDocument: { uri: doc.uri } });
  }

  private async evict(): Promise<void> {
    if (this.open.size < MAX_OPEN) return;
    const oldest = [...this.open.values()].sort((a, b) => a.lastUsed - b.lastUsed)[0];
    await this.close(oldest);
  }
}
