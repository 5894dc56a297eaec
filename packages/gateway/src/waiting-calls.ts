// The calls a waiter in this process waits on, and the store steps still owed for calls whose waiter
// left while the database failed: retried off the request path until they succeed, so a call is
// never left 'waiting' with nobody there.

/** How often an owed step is tried again. */
const RETRY_MS = 1000;

export class WaitingCalls {
  private readonly here = new Set<string>();
  private readonly owed = new Map<string, () => Promise<unknown>>();
  private readonly idle = new Set<() => void>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly retryMs = RETRY_MS) {}

  add(callId: string): void {
    this.here.add(callId);
  }

  delete(callId: string): void {
    this.here.delete(callId);
    if (this.here.size === 0) for (const done of [...this.idle]) done();
  }

  /** Whether a waiter in this process waits for the call now. */
  readonly has = (callId: string): boolean => this.here.has(callId);

  get size(): number {
    return this.here.size;
  }

  /** Steps owed to the store (releases that failed), waiting for it to come back. */
  get owing(): number {
    return this.owed.size;
  }

  /** Tries `step` again every second until it succeeds (the store is back). */
  owe(callId: string, step: () => Promise<unknown>): void {
    this.owed.set(callId, step);
    this.timer ??= setInterval(() => void this.payOwed(), this.retryMs).unref();
  }

  /** Tries every owed step once; those that fail stay owed. */
  async payOwed(): Promise<void> {
    for (const [callId, step] of [...this.owed]) {
      try {
        await step();
        this.owed.delete(callId);
      } catch {
        // still failing: tried again on the next round
      }
    }
    if (this.owed.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** Resolves when no waiter is left here (shutdown lets each one leave its call first), or after `limitMs`. */
  async drained(limitMs: number): Promise<void> {
    if (this.here.size === 0) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.idle.delete(done);
        resolve();
      };
      const timer = setTimeout(done, limitMs);
      this.idle.add(done);
    });
  }

  /** At shutdown: each waiter leaves its call (pending, so a late result reaches the inbox) before the store closes. */
  async close(limitMs: number): Promise<void> {
    await this.drained(limitMs);
    await this.payOwed();
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
