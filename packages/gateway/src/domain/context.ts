// What the domain functions share: the pieces one gateway instance is made of.
import type { Executor, ToolSource } from '@toolbelt/core';
import type { CallInfo } from '../declared/pending.js';
import type { EventRecorder } from '../events/recorder.js';
import type { GatewayStore } from '../store/types.js';

export interface Domain {
  store: GatewayStore;
  executor: Executor;
  registry: ToolSource;
  recorder: EventRecorder;
  /** Calls this instance is running, with who made them (declared tools read it). */
  inflight: Map<string, CallInfo>;
  /** Aborted when the gateway shuts down: every event stream ends. (Calls end with their connections.) */
  shutdown: AbortSignal;
}
