// Expiry and retention: overdue open calls end (their agents are told) and old events are pruned,
// on a timer and on demand.
import type { EventRecorder } from './events/recorder.js';
import { publishSettled } from './spaces/publish.js';
import type { GatewayStore } from './store/index.js';

export interface SweepOptions {
  /** How often; default 30 s. */
  sweepIntervalMs?: number;
  /** Events older than this are pruned; default 7 days. */
  eventRetentionMs?: number;
}

/** Sweeps on a timer (unref'd: it never keeps the process alive); `sweep` runs one now. */
export function startSweeping(store: GatewayStore, recorder: EventRecorder, o: SweepOptions) {
  const sweep = sweeper(store, recorder, o.eventRetentionMs ?? 7 * 24 * 3600_000);
  const timer = setInterval(() => void sweep().catch(() => recorder.failures++), o.sweepIntervalMs ?? 30_000);
  timer.unref();
  return { sweep, timer };
}

/** Expires overdue open calls (telling their agents) and prunes events older than the retention. */
function sweeper(store: GatewayStore, recorder: EventRecorder, retentionMs: number): () => Promise<void> {
  return async () => {
    const now = Date.now();
    // Several instances on one database: calls of an instance that died end here, not at its restart.
    await store.reclaimOrphans?.(now);
    for (const c of await store.expireCalls(now)) {
      recorder.publish({
        type: 'pending.expired',
        ts: now,
        sessionId: c.sessionId,
        runId: c.runId,
        agentId: c.agentId,
        callId: c.callId,
        tool: c.tool,
      });
      if (c.visible) publishSettled(recorder, await store.spaces.messageOfCall(c.callId));
    }
    await store.pruneEvents(now - retentionMs);
  };
}
