// Items pushed in the same event-loop tick are written together, one batch at a time and in order:
// one transaction per tick instead of one per item.
export class TickBatcher<T> {
  private queue: T[] = [];
  private scheduled = false;
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly writeBatch: (batch: T[]) => Promise<void>) {}

  push(item: T): void {
    this.queue.push(item);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  /** Writes everything queued; resolves when every batch so far is written. */
  flush(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    if (batch.length) this.chain = this.chain.then(() => this.writeBatch(batch));
    return this.chain;
  }
}
