// An agent's think cycles as an async iterator: each turn takes the unread inbox as one batch
// (waiting for the first message when it is empty) and acknowledges the cycle before the next.
import type { CycleAnswer, CycleDoneAnswer, InboxMessage } from '@toolbelt/core';
import { isRetryable } from './errors.js';

export interface CycleSource {
  takeCycle(agentId: string, o: { waitMs?: number; limit?: number; signal?: AbortSignal }): Promise<CycleAnswer>;
  finishCycle(agentId: string, cycleId: string): Promise<CycleDoneAnswer>;
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
    const { cycleId } = answer;
    let acked = false;
    const cycle: Cycle = {
      id: cycleId,
      messages: answer.messages,
      async done() {
        if (acked) return;
        acked = true;
        await source.finishCycle(agentId, cycleId);
      },
    };
    yield cycle;
    await cycle.done();
  }
}
