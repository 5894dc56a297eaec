// The pure-JS grep engine: the main thread walks the tree with ripgrep's filters and hands batches
// of files to worker threads as it goes; hits flow into the collector until it is full, which
// (like an abort) raises a shared flag that stops the workers between files.
import { SearchFilter } from '../../walk/filters.js';
import type { CompiledPattern } from '../regex.js';
import { KEEP_CHARS, type Collector, type GrepQuery } from '../results.js';
import { walk } from '../../walk/walk.js';
import { READ_FLAGS } from '../../workspace/special.js';
import type { SearchSpec } from './core.js';
import type { SearchPool } from './pool.js';

const BATCH = 32;
const GRACE_MS = 500;

export function specFor(q: GrepQuery, p: CompiledPattern): SearchSpec {
  return {
    mode: q.mode,
    before: q.before,
    after: q.after,
    multiline: q.multiline && p.canMatchNewline,
    line: [p.line.source, p.line.flags],
    prefilter: p.prefilter ? [p.prefilter.source, p.prefilter.flags] : null,
    multi: [p.multi.source, p.multi.flags],
    maxLines: q.mode === 'content' ? q.maxResults : Number.MAX_SAFE_INTEGER,
    keepChars: KEEP_CHARS,
    chunkBytes: 64 * 1024 * 1024,
    multilineMaxBytes: 256 * 1024 * 1024,
    needles: p.literals?.any ?? null,
    also: p.literals?.all.length ? p.literals.all : null,
    openFlags: READ_FLAGS,
  };
}

export async function runJs(
  q: GrepQuery,
  pattern: CompiledPattern,
  collector: Collector,
  pool: SearchPool,
): Promise<void> {
  const spec = specFor(q, pattern);
  const stopBuf = new SharedArrayBuffer(4);
  const stop = new Int32Array(stopBuf);
  const pending = new Set<Promise<void>>();
  const halt = () => Atomics.store(stop, 0, 1);
  const onAbort = () => {
    halt();
    // A worker stuck in a runaway regular expression never checks the flag: stop it.
    setTimeout(() => void pool.terminateBusy(), GRACE_MS).unref();
  };
  q.signal.addEventListener('abort', onAbort, { once: true });

  let failure: unknown;
  const dispatch = (files: string[]) => {
    const job = pool.search(files, spec, stopBuf).then(
      (hits) => {
        for (const hit of hits) {
          if (Atomics.load(stop, 0) !== 0) break;
          if (!collector.add(hit)) halt();
        }
      },
      (err: unknown) => {
        failure ??= err;
        halt();
      },
    );
    pending.add(job);
    void job.finally(() => pending.delete(job));
  };

  try {
    if (q.isFile) dispatch([q.root]);
    else {
      const filter = new SearchFilter({ globs: q.globs, typeGlobs: q.typeGlobs, ignoreFiles: q.ignoreFiles });
      let batch: string[] = [];
      await walk({
        root: q.root,
        filter,
        signal: q.signal,
        onFile(abs) {
          if (Atomics.load(stop, 0) !== 0) return false;
          batch.push(abs);
          if (batch.length >= BATCH) {
            dispatch(batch);
            batch = [];
          }
          return true;
        },
      });
      if (batch.length && Atomics.load(stop, 0) === 0) dispatch(batch);
    }
    while (pending.size) await Promise.all([...pending]);
    if (failure) throw failure;
  } finally {
    q.signal.removeEventListener('abort', onAbort);
  }
}
