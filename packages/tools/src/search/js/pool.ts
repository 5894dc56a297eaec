// Worker threads for the JS grep engine. Each worker runs createSearcher from its source text, so
// the same code serves the library build and the test runner. Workers are started on first use,
// kept warm between searches, never keep the process alive, and are replaced if one is stopped.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { createSearcher, type FileHit, type SearchSpec } from './core.js';
import { createLineScanner } from './lines.js';

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const searchFile = (${createSearcher.toString()})((${createLineScanner.toString()})());
parentPort.on('message', ({ id, files, spec, stop }) => {
  const flag = new Int32Array(stop);
  const hits = [];
  for (const f of files) {
    if (Atomics.load(flag, 0) !== 0) break;
    const hit = searchFile(f, spec, fs);
    if (hit) hits.push(hit);
  }
  parentPort.postMessage({ id, hits });
});
`;

interface Slot {
  worker: Worker;
  outstanding: Map<number, { resolve: (hits: FileHit[]) => void; reject: (err: Error) => void }>;
  /** We stopped it ourselves (abort, close): its batches end empty instead of failing. */
  stopping: boolean;
}

export class SearchPool {
  private slots: Slot[] = [];
  private nextId = 0;
  readonly size: number;

  constructor(size = Math.max(1, Math.min(4, availableParallelism()))) {
    this.size = size;
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.unref();
    const slot: Slot = { worker, outstanding: new Map(), stopping: false };
    worker.on('message', ({ id, hits }: { id: number; hits: FileHit[] }) => {
      const done = slot.outstanding.get(id);
      slot.outstanding.delete(id);
      done?.resolve(hits);
    });
    const fail = (err?: Error) => {
      // A stopped worker's batches end empty; one that died on its own fails the search, never
      // passing for "no matches". Either way the slot is replaced on next use.
      for (const done of slot.outstanding.values()) {
        if (slot.stopping) done.resolve([]);
        else done.reject(new Error(`a grep worker thread failed: ${err?.message ?? 'it exited'}`));
      }
      slot.outstanding.clear();
      this.slots = this.slots.filter((s) => s !== slot);
    };
    worker.on('error', (err) => fail(err));
    worker.on('exit', () => fail());
    return slot;
  }

  private pick(): Slot {
    while (this.slots.length < this.size) this.slots.push(this.spawn());
    let best = this.slots[0];
    for (const s of this.slots) if (s.outstanding.size < best.outstanding.size) best = s;
    return best;
  }

  /** Searches a batch of files on the least busy worker. `stop` is a shared flag: non-zero stops early. */
  search(files: string[], spec: SearchSpec, stop: SharedArrayBuffer): Promise<FileHit[]> {
    const slot = this.pick();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      slot.outstanding.set(id, { resolve, reject });
      slot.worker.postMessage({ id, files, spec, stop });
    });
  }

  /** Stops workers still busy with a search (a runaway regular expression); they are replaced later. */
  async terminateBusy(): Promise<void> {
    const busy = this.slots.filter((s) => s.outstanding.size > 0);
    for (const s of busy) s.stopping = true;
    await Promise.all(busy.map((s) => s.worker.terminate()));
  }

  async close(): Promise<void> {
    const all = this.slots;
    this.slots = [];
    for (const s of all) s.stopping = true;
    await Promise.all(all.map((s) => s.worker.terminate()));
  }
}
