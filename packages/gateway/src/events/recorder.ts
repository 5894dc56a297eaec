// Every event is stored first (which gives it its id) and then handed to live subscribers, so a
// subscriber that reconnects with Last-Event-ID finds in the store everything it missed. On a
// store shared by several instances, subscribers get every instance's events, in id order: this
// instance's own batch goes out at once when it follows the last id delivered, anything else is
// read back from the store.
import type { GatewayStore, StoredEvent } from '../store/index.js';
import type { GatewayEvent } from './types.js';
import { TickBatcher } from '../batch.js';

type Subscriber = (stored: StoredEvent) => void;

const PAGE = 500;

export class EventRecorder {
  private readonly batcher = new TickBatcher<GatewayEvent>((batch) => this.write(batch));
  private readonly subscribers = new Set<Subscriber>();
  /** Shared stores: the last id delivered (undefined until the first batch). */
  private delivered: number | undefined;
  private pulling: Promise<void> | undefined;
  private pullAgain = false;
  private readonly unwatch: () => void;
  /** Store failures, for /metrics; events that could not be stored are not broadcast either. */
  failures = 0;

  constructor(private readonly store: GatewayStore) {
    this.unwatch = store.watchEvents?.((lastId) => this.appendedElsewhere(lastId)) ?? (() => {});
  }

  /** A recorder for this store; on a shared one it follows the events stored after this moment (a new subscriber replays older ones itself). */
  static async start(store: GatewayStore): Promise<EventRecorder> {
    const recorder = new EventRecorder(store);
    if (store.shared) recorder.delivered = await store.lastEventId();
    return recorder;
  }

  /** Queues an event; events published in the same tick are stored in one transaction. */
  publish(event: GatewayEvent): void {
    this.batcher.push(event);
  }

  /** Stores and broadcasts everything queued; resolves when it is done. */
  async flush(): Promise<void> {
    await this.batcher.flush();
    await this.pulling;
  }

  /** Stops following the other instances' events. */
  close(): void {
    this.unwatch();
  }

  private async write(batch: GatewayEvent[]): Promise<void> {
    let ids: number[];
    try {
      ids = await this.store.appendEvents(batch);
    } catch {
      this.failures++;
      return;
    }
    const last = ids[ids.length - 1];
    const inOrder = this.delivered === undefined || ids[0] === this.delivered + 1;
    if (!this.store.shared || (!this.pulling && (inOrder || this.subscribers.size === 0))) {
      // Every id up to ours is visible now (appends take turns), so with nobody listening the cursor moves past them.
      this.delivered = Math.max(this.delivered ?? 0, last);
      batch.forEach((event, i) => this.broadcast({ id: ids[i], event }));
    } else await this.pull();
  }

  /**
   * Another instance appended events up to `lastId`. With nobody listening here there is nothing to
   * read: the cursor moves past them (a stream that starts later replays from the store itself).
   */
  private appendedElsewhere(lastId: number | undefined): void {
    if (lastId !== undefined && this.subscribers.size === 0 && !this.pulling && this.delivered !== undefined) {
      this.delivered = Math.max(this.delivered, lastId);
      return;
    }
    void this.pull();
  }

  /** Reads what the store holds after the last id delivered and hands it out, one pull at a time. */
  private pull(): Promise<void> {
    if (this.pulling) {
      this.pullAgain = true;
      return this.pulling;
    }
    this.pulling = (async () => {
      do {
        this.pullAgain = false;
        try {
          await this.pullPages();
        } catch {
          this.failures++;
        }
      } while (this.pullAgain);
    })().finally(() => (this.pulling = undefined));
    return this.pulling;
  }

  private async pullPages(): Promise<void> {
    this.delivered ??= await this.store.lastEventId();
    for (;;) {
      const page = await this.store.eventsAfter(this.delivered, {}, PAGE);
      for (const s of page) {
        this.delivered = s.id;
        this.broadcast(s);
      }
      // A page can end early for its size: only an empty one says there is no more.
      if (!page.length) return;
    }
  }

  private broadcast(stored: StoredEvent): void {
    for (const s of this.subscribers) {
      try {
        s(stored);
      } catch {
        // One broken subscriber must not starve the others.
      }
    }
  }

  subscribe(fn: Subscriber): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }
}
