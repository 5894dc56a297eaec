// What the domain functions share: the pieces one gateway instance is made of.
import type { Executor, ToolSource } from '@toolbelt/core';
import type { CallInfo } from '../declared/pending.js';
import type { EventRecorder } from '../events/recorder.js';
import type { GatewayStore, SpaceMessage } from '../store/index.js';
import type { Waiters } from '../waiters.js';
import type { WaitingCalls } from '../waiting-calls.js';
import type { SessionOwners } from './sessions.js';

export interface Domain {
  store: GatewayStore;
  executor: Executor;
  registry: ToolSource;
  recorder: EventRecorder;
  /** Calls this instance is running, with who made them (declared tools read it). */
  inflight: Map<string, CallInfo>;
  /** Calls a waiter here waits on (a result for any other 'waiting' call goes to the inbox). */
  waiting: WaitingCalls;
  /** How long a think cycle holds its messages before they are offered again (a heartbeat extends it). */
  cycleLeaseMs: number;
  /** Aborted when the gateway shuts down: every event stream ends. (Calls end with their connections.) */
  shutdown: AbortSignal;
  /** Parked callers (long-polling think cycles wait here). */
  waiters: Waiters;
  /** Visible calls in flight, by callId: their space message, which their streamed output joins. */
  visible: Map<string, SpaceMessage>;
  /** Which agent each session id belongs to. */
  sessions: SessionOwners;
}
