// Background loops over the event stream: act as an external executor or as an approver. Each
// loop also picks up what was already waiting when it (re)connected, and never acts twice on a call.
import type { GatewayClient } from './client.js';
import { GatewayError } from './errors.js';
import type { EventStreamOptions } from './events.js';
import type { GatewayEventType, StreamedEvent } from '@toolbelt/protocol';

export interface Worker {
  /** Stops listening and waits for handlers in progress to finish. */
  stop(): Promise<void>;
  /** Resolves when the loop has connected and caught up once. */
  ready: Promise<void>;
}

export interface WorkerOptions {
  runId?: string;
  agentIds?: string[];
  signal?: AbortSignal;
  /** Errors that are not about the call having been settled by someone else. */
  onError?: (err: unknown) => void;
}

/** A call was settled elsewhere, or expired: nothing to do. */
export function alreadySettled(err: unknown): boolean {
  return err instanceof GatewayError && (err.status === 404 || err.status === 409 || err.status === 410);
}

export function runWorker<K extends string>(
  client: GatewayClient,
  o: WorkerOptions & { types: GatewayEventType[] },
  keyOf: (e: StreamedEvent) => K | undefined,
  catchUp: () => Promise<void>,
  act: (e: StreamedEvent) => Promise<void>,
): Worker & { seen: Set<string>; track(p: Promise<void>): void } {
  const controller = new AbortController();
  const onOuter = () => controller.abort();
  o.signal?.addEventListener('abort', onOuter, { once: true });
  const seen = new Set<string>();
  const running = new Set<Promise<void>>();
  const report = (err: unknown) => {
    if (!alreadySettled(err)) o.onError?.(err);
  };
  const track = (p: Promise<void>) => {
    const q = p.catch(report).finally(() => running.delete(q));
    running.add(q);
  };
  let markReady!: () => void;
  const ready = new Promise<void>((r) => (markReady = r));
  const stream: EventStreamOptions = {
    types: o.types,
    signal: controller.signal,
    onReady: () => {
      track(catchUp().finally(markReady));
    },
    ...(o.runId ? { runId: o.runId } : {}),
    ...(o.agentIds ? { agentIds: o.agentIds } : {}),
  };
  const loop = (async () => {
    try {
      for await (const e of client.events(stream)) {
        const key = keyOf(e);
        if (key === undefined || seen.has(key)) continue;
        track(act(e));
      }
    } catch (err) {
      if (!controller.signal.aborted) o.onError?.(err);
      markReady();
    }
  })();
  return {
    seen,
    track,
    ready,
    async stop() {
      controller.abort();
      o.signal?.removeEventListener('abort', onOuter);
      await loop;
      await Promise.allSettled([...running]);
    },
  };
}
