// What a configured server is doing, and how long it waits before its next connection attempt.
import type { TransportKind } from './transport.js';

export type ServerStatus =
  | { state: 'disabled' }
  | { state: 'connecting'; attempt: number }
  | { state: 'connected'; transport: TransportKind; tools: number; pid?: number; restarts: number }
  /** `retryInMs` is set while another attempt is scheduled. */
  | { state: 'failed'; reason: string; attempts: number; retryInMs?: number };

export interface RestartPolicy {
  /** Consecutive failed attempts before giving up. Default 5. */
  maxAttempts: number;
  /** First delay; doubles per attempt, with jitter. Default 500 ms. */
  baseDelayMs: number;
  /** Default 30 s. */
  maxDelayMs: number;
}

export const DEFAULT_RESTART: RestartPolicy = { maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 30_000 };

/** The wait after `failures` failed attempts: doubling from the base up to the cap, jittered over its upper half. */
export function retryDelay(policy: RestartPolicy, failures: number): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failures - 1));
  return Math.round(exp / 2 + Math.random() * (exp / 2));
}
