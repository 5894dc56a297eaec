// The execution log into the store: entries are buffered and written in one transaction per tick,
// so logging costs a call almost nothing.
import type { ExecutionLogEntry, LogSink } from '@toolbelt/core';
import type { GatewayStore } from './store/index.js';
import { TickBatcher } from './batch.js';

export class StoreLogSink implements LogSink {
  private readonly batcher = new TickBatcher<ExecutionLogEntry>((batch) =>
    this.store.appendExecutions(batch).catch(() => {
      this.failures++;
    }),
  );
  /** Write failures, for /metrics. */
  failures = 0;

  constructor(private readonly store: GatewayStore) {}

  write(entry: ExecutionLogEntry): void {
    this.batcher.push(entry);
  }

  flush(): Promise<void> {
    return this.batcher.flush();
  }
}
