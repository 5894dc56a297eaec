// Requests of one event-loop turn sent to PostgreSQL as one statement: under load, one round trip
// (and one commit) serves every call that reached the same step in that turn.
export class TurnBatch<I, O> {
  private queue: { item: I; resolve: (o: O) => void; reject: (err: unknown) => void }[] = [];

  constructor(private readonly run: (items: I[]) => Promise<O[]>) {}

  push(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      if (this.queue.push({ item, resolve, reject }) === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const batch = this.queue;
    this.queue = [];
    this.run(batch.map((b) => b.item)).then(
      (out) => batch.forEach((b, i) => b.resolve(out[i])),
      (err: unknown) => batch.forEach((b) => b.reject(err)),
    );
  }
}
