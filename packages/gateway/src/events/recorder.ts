// Every event is stored first (which gives it its id) and then handed to live subscribers, so a
// subscriber that reconnects with Last-Event-ID finds in the store everything it missed.
import type { GatewayStore, StoredEvent } from '../store/types.js';
import type { GatewayEvent } from './types.js';
import { TickBatcher } from '../batch.js';

type Subscriber = (stored: StoredEvent) => void;

export class EventRecorder {
  private readonly batcher = new TickBatcher<GatewayEvent>((batch) => this.write(batch));
  private readonly subscribers = new Set<Subscriber>();
  /** Store failures, for /metrics; events that could not be stored are not broadcast either. */
  failures = 0;

  constructor(private readonly store: GatewayStore) {}

  /** Queues an event; events published in the same tick are stored in one transaction. */
  publish(event: GatewayEvent): void {
    this.batcher.push(event);
  }

  /** Stores and broadcasts everything queued; resolves when it is done. */
  flush(): Promise<void> {
    return this.batcher.flush();
  }

  private async write(batch: GatewayEvent[]): Promise<void> {
    let ids: number[];
    try {
      ids = await this.store.appendEvents(batch);
    } catch {
      this.failures++;
      return;
    }
    for (let i = 0; i < batch.length; i++) {
      const stored = { id: ids[i], event: batch[i] };
      for (const s of this.subscribers) {
        try {
          s(stored);
        } catch {
          // One broken subscriber must not starve the others.
        }
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
