// What one call needs from its executor: the registry, policy, events and cache it shares with
// every other call, the settings it reads, and the executor's approver and event stream.
import type { Approver } from '../approval.js';
import type { EventBus, ToolEvent } from '../events.js';
import type { Policy } from '../policy/policy.js';
import type { ToolSource } from '../source.js';
import type { StructuredText } from '../structured-text.js';
import type { AliasIndex } from './aliases.js';
import type { Deadline } from './attempt.js';
import type { ReadCache } from './cache.js';
import type { ContextHost } from './call-context.js';
import type { CallRequest } from './request.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An event as a call emits it; the executor fills in the time and the session. */
export type EventBody = DistributiveOmit<ToolEvent, 'ts' | 'sessionId' | 'runId' | 'agentId'>;

/** The executor's settings a call reads, resolved once. */
interface CallLimits {
  defaultTimeoutMs: number;
  maxTimeoutMs: number;
  approvalTimeoutMs: number;
  maxOutputChars: number;
  /** How a structured-only output becomes the text a model reads. */
  structuredText: StructuredText;
  retryBaseDelayMs: number;
}

/** What a call needs from its executor. */
export interface CallHost {
  readonly registry: ToolSource;
  readonly policy: Policy;
  readonly events: EventBus;
  readonly cache: ReadCache;
  readonly limits: CallLimits;
  /** Deadlines of the calls running now, so close() can abort them. */
  readonly inFlight: Set<Deadline>;
  readonly contexts: ContextHost;
  /** Other tool sets' names for the registered tools; absent when aliases are off. */
  readonly aliases?: AliasIndex;
  isClosed(): boolean;
  /** The executor's approver for the call's origin, at the moment of asking. */
  approve: Approver;
  emit(req: CallRequest, event: EventBody): void;
}
