// The execution log into the store: entries are buffered and written in one transaction per tick,
// so logging costs a call almost nothing.
import type { ExecutionLogEntry, LogSink } from '@toolbelt/core';
import type { GatewayStore } from './store/types.js';

export class StoreLogSink implements LogSink {
  private buffer: ExecutionLogEntry[] = [];
  private scheduled = false;
  private chain: Promise<void> = Promise.resolve();
  /** Write failures, for /metrics. */
  failures = 0;

  constructor(private readonly store: GatewayStore) {}

  write(entry: ExecutionLogEntry): void {
    this.buffer.push(entry);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  flush(): Promise<void> {
    const batch = this.buffer;
    this.buffer = [];
    if (batch.length) {
      this.chain = this.chain.then(() =>
        this.store.appendExecutions(batch).catch(() => {
          this.failures++;
        }),
      );
    }
    return this.chain;
  }
}
