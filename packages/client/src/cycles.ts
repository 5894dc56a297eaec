// An agent's think cycles as an async iterator: each turn takes the unread inbox as one batch
// (waiting for the first message when it is empty). A cycle is acknowledged only once it was
// handled: when the loop asks for the next one, or by done(). Leaving the loop (break, throw) leaves
// it unacknowledged, and its messages come back after the cycle's lease, which the loop extends with
// heartbeats while the cycle is handled. At least once: handle a message twice harmlessly.
import type { CycleAnswer, CycleDoneAnswer, CycleHeartbeatAnswer, InboxMessage } from '@toolbelt/protocol';
import { isRetryable } from './errors.js';

export interface CycleSource {
  takeCycle(agentId: string, o: { waitMs?: number; limit?: number; signal?: AbortSignal }): Promise<CycleAnswer>;
  finishCycle(agentId: string, cycleId: string): Promise<CycleDoneAnswer>;
  heartbeatCycle?(agentId: string, cycleId: string): Promise<CycleHeartbeatAnswer>;
}

export interface Cycle {
  id: string;
  /** Oldest first: messages from others and late tool results. */
  messages: InboxMessage[];
  /** Acknowledges the cycle (done for you when the loop asks for the next one). */
  done(): Promise<void>;
}

export interface CycleOptions {
  /** How long each request waits for a first message (default 25 s, at most 60 s). */
  waitMs?: number;
  /** Most messages per cycle (default 100). */
  limit?: number;
  signal?: AbortSignal;
}

export async function* cycles(source: CycleSource, agentId: string, o: CycleOptions = {}): AsyncGenerator<Cycle> {
  let failures = 0;
  while (!o.signal?.aborted) {
    let answer: CycleAnswer;
    try {
      answer = await source.takeCycle(agentId, {
        waitMs: o.waitMs ?? 25_000,
        ...(o.limit ? { limit: o.limit } : {}),
        ...(o.signal ? { signal: o.signal } : {}),
      });
      failures = 0;
    } catch (err) {
      if (o.signal?.aborted) return;
      if (!isRetryable(err) || ++failures > 5) throw err;
      await new Promise((r) => setTimeout(r, 200 * 2 ** failures));
      continue;
    }
    if (answer.cycleId === null) continue;
    const cycle = handled(source, agentId, answer.cycleId, answer.messages);
    const stopHeartbeat = keepLeased(source, agentId, answer.cycleId, answer.leaseExpiresAt);
    try {
      yield cycle;
    } finally {
      stopHeartbeat();
    }
    await cycle.done().catch(() => {
      // Not acknowledged (the gateway is unreachable): the messages come back after the lease.
    });
  }
}

/** The cycle handed to the caller: done() acknowledges it once, retrying a failure the gateway may get over. */
function handled(source: CycleSource, agentId: string, cycleId: string, messages: InboxMessage[]): Cycle {
  let acked: Promise<void> | undefined;
  return {
    id: cycleId,
    messages,
    done() {
      acked ??= (async () => {
        for (let attempt = 0; ; attempt++) {
          try {
            await source.finishCycle(agentId, cycleId);
            return;
          } catch (err) {
            if (!isRetryable(err) || attempt >= 3) throw err;
            await new Promise((r) => setTimeout(r, 200 * 2 ** attempt));
          }
        }
      })();
      return acked;
    },
  };
}

/** Heartbeats at a third of the lease while the cycle is handled; returns how to stop. */
function keepLeased(
  source: CycleSource,
  agentId: string,
  cycleId: string,
  leaseExpiresAt: number | undefined,
): () => void {
  if (!source.heartbeatCycle || leaseExpiresAt === undefined) return () => {};
  const every = Math.max(100, (leaseExpiresAt - Date.now()) / 3);
  const timer = setInterval(() => void source.heartbeatCycle!(agentId, cycleId).catch(() => {}), every);
  timer.unref?.();
  return () => clearInterval(timer);
}
