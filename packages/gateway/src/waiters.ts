// Callers parked until the store says their call moved on: woken by an event, never by polling.
import { EVERYTHING, noticeKey, type GatewayStore, type StoreNotice } from './store/index.js';

export type WaitOutcome = 'woken' | 'timeout' | 'aborted';

/** Longer than any timer can run: the caller's signal bounds such a wait. */
const FOREVER = 2 ** 31 - 1;

export class Waiters {
  private readonly parked = new Map<string, Set<(o: WaitOutcome) => void>>();
  private readonly unsubscribe: () => void;

  constructor(store: GatewayStore) {
    this.unsubscribe = store.subscribe((n: StoreNotice) => this.wake(noticeKey(n)));
  }

  /**
   * Parks until `key` is woken, `timeoutMs` passes or `signal` aborts. Register before the step
   * that could trigger the wake-up, then re-read the store: a notice never lands in a gap.
   */
  park(key: string, timeoutMs: number, signal?: AbortSignal): { outcome: Promise<WaitOutcome>; cancel: () => void } {
    let settle!: (o: WaitOutcome) => void;
    const outcome = new Promise<WaitOutcome>((resolve) => (settle = resolve));
    const set = this.parked.get(key) ?? new Set();
    this.parked.set(key, set);
    const done = (o: WaitOutcome) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      set.delete(done);
      if (set.size === 0 && this.parked.get(key) === set) this.parked.delete(key);
      settle(o);
    };
    const onAbort = () => done('aborted');
    set.add(done);
    const timer = setTimeout(() => done('timeout'), Math.min(Math.max(0, timeoutMs), 2 ** 31 - 1));
    timer.unref();
    if (signal?.aborted) done('aborted');
    else signal?.addEventListener('abort', onAbort, { once: true });
    return { outcome, cancel: () => done('aborted') };
  }

  /**
   * A call waiting for a person (an approval, a tool's question): `ask()` puts it to people and says
   * false when it cannot; then the wait lasts until `answer()` reads one from the store, looking again
   * each time `key` is woken. Parked before asking, so an answer given at once is not missed. The
   * executor bounds the wait through `signal`.
   */
  async forPerson<T>(
    key: string,
    signal: AbortSignal,
    ask: () => Promise<boolean>,
    answer: () => Promise<T | undefined>,
  ): Promise<T | undefined> {
    let parked = this.park(key, FOREVER, signal);
    if (!(await ask())) {
      parked.cancel();
      return undefined;
    }
    for (;;) {
      const outcome = await parked.outcome;
      const got = await answer();
      if (got !== undefined) return got;
      if (outcome !== 'woken') throw signal.reason ?? new Error('the wait for a person was cancelled');
      parked = this.park(key, FOREVER, signal);
    }
  }

  wake(key: string): void {
    if (key === EVERYTHING) {
      for (const set of [...this.parked.values()]) for (const w of [...set]) w('woken');
      return;
    }
    const set = this.parked.get(key);
    if (!set) return;
    for (const w of [...set]) w('woken');
  }

  get size(): number {
    let n = 0;
    for (const s of this.parked.values()) n += s.size;
    return n;
  }

  close(): void {
    this.unsubscribe();
    for (const set of [...this.parked.values()]) for (const w of [...set]) w('aborted');
  }
}
