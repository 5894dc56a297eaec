// The gateway's state behind one interface: SQLite embedded by default, PostgreSQL later. Every
// method is async so a networked store fits; every state change that matters is one atomic step.
// The records it hands out (calls, inbox messages, events) are the wire contract's, from core.
import type {
  ApprovalDecision,
  ApprovalRequest,
  ElicitationRequest,
  ExecutionLogEntry,
  Remembered,
  ToolResult,
} from '@toolbelt/core';
import type {
  CallRecord,
  CallStatus,
  ExecutionList,
  GatewayEvent,
  InboxMessage,
  InputAnswer,
  Submission,
} from '@toolbelt/protocol';

import type { SpaceMessage, SpaceStore } from './space-types.js';

export type { CallRecord, CallStatus, InboxMessage, Submission };
export type * from './space-types.js';

// Every status once: a status added to the wire contract and not here is a compile error.
const STATUSES: Record<CallStatus, true> = {
  running: true,
  awaiting_approval: true,
  awaiting_input: true,
  waiting: true,
  pending: true,
  resolved: true,
  expired: true,
  success: true,
  error: true,
  rejected: true,
};
export const CALL_STATUSES: readonly CallStatus[] = Object.keys(STATUSES) as CallStatus[];
/** Statuses in which a submitted result is accepted. */
export const OPEN_STATUSES: readonly CallStatus[] = ['waiting', 'pending'];

export type NewCall = Pick<CallRecord, 'callId' | 'runId' | 'agentId' | 'sessionId' | 'tool' | 'input' | 'visible'> & {
  createdAt: number;
};

/** A page of calls: `cut` says it ended early for its size (there may be more). */
export type CallPage = CallRecord[] & { cut?: boolean };

export interface CallFilter {
  runId?: string;
  /** Only calls of these agents (token scope); undefined means any agent. */
  agentIds?: readonly string[];
  statuses?: readonly CallStatus[];
  tool?: string;
  /** Calls with seq below this (the next page). */
  before?: number;
  /** Only calls that asked a person something: an approval or a question (what an approver sees). */
  askedPerson?: boolean;
  limit: number;
}

export type ResolveOutcome =
  | { ok: true; previous: 'waiting' | 'pending'; call: CallRecord; inbox?: InboxMessage; message?: SpaceMessage }
  | { ok: false; reason: 'not_found' | 'not_open' | 'expired'; call?: CallRecord };

/** How a waiter leaves its call (see releaseWaiter). */
export interface LeaveWait {
  /** The result the agent got instead, recorded with the call. */
  why: ToolResult;
  /** When a pending call with no expiry yet expires. */
  expiresAt: number;
  /** A result that arrived first goes to the inbox: nobody is left to hand it to. */
  orInbox: boolean;
}

export type ReleaseOutcome = { outcome: 'released' | 'resolved' | 'other'; inbox?: InboxMessage };

/**
 * Whether a live waiter in this process waits for the call: a 'waiting' call without one (its waiter
 * failed before it could say so) takes its result into the inbox, never "inline" to nobody.
 */
export type WaitsHere = (callId: string) => boolean;

export type DecideOutcome =
  { ok: true; call: CallRecord } | { ok: false; reason: 'not_found' | 'not_awaiting'; call?: CallRecord };

export interface StoredEvent {
  id: number;
  event: GatewayEvent;
}

export interface EventFilter {
  runId?: string;
  /** Only events of these agents; events without an agent are left out too. */
  agentIds?: readonly string[];
  types?: readonly string[];
  /** Only events of this space. */
  spaceId?: string;
}

export interface ExecutionFilter {
  tool?: string;
  status?: string;
  agentId?: string;
  runId?: string;
  /** ISO timestamp: entries at or after it. */
  since?: string;
  /** Entries older than this cursor (the last page's nextBefore). */
  before?: number;
  limit: number;
}

/** Said by the store when a waiter elsewhere should look again (in-process now; NOTIFY in PG). */
export type StoreNotice =
  | { kind: 'call.resolved'; callId: string }
  | { kind: 'approval.decided'; callId: string }
  | { kind: 'input.answered'; callId: string }
  /** Something new in this agent's inbox: a think cycle waiting for it takes it. */
  | { kind: 'inbox.added'; agentId: string }
  /** Notices may have been missed (the database connection was lost): every waiter looks again. */
  | { kind: 'everything' };

/** Notices that a person answered a call parked for them. */
export type WaitNotice = 'approval.decided' | 'input.answered';

/** The waiters' key a notice wakes. */
export const noticeKey = (n: StoreNotice): string =>
  n.kind === 'everything'
    ? EVERYTHING
    : n.kind === 'inbox.added'
      ? `inbox.added:${n.agentId}`
      : `${n.kind}:${n.callId}`;
/** Tells each listener of a store; a listener's failure must not undo a committed change. */
export function tellListeners(listeners: Iterable<(n: StoreNotice) => void>, notice: StoreNotice): void {
  for (const l of listeners) {
    try {
      l(notice);
    } catch {
      // the change is committed; the listener's trouble is its own
    }
  }
}

/** The key that wakes every waiter. */
export const EVERYTHING = '*';

export interface StoreHealth {
  ok: boolean;
  /** What is wrong, when it is not ok. */
  error?: string;
}

export interface RecoveryReport {
  /** waiting calls whose waiter died with the last process: now pending, so a late result goes to the inbox. */
  reopened: number;
  /** running / awaiting_approval / awaiting_input calls cut off by the restart: now error. */
  interrupted: number;
}

export interface GatewayStore {
  /** Spaces, messages, agents' notes and think cycles. */
  readonly spaces: SpaceStore;
  /** Records a new call as running. False when the callId is already taken. */
  createCall(call: NewCall): Promise<boolean>;
  getCall(callId: string): Promise<CallRecord | undefined>;
  /** Newest first, large fields cut to previews; `cut` when the page ended early for its size. */
  listCalls(filter: CallFilter): Promise<CallPage>;
  countCallsByStatus(): Promise<Partial<Record<CallStatus, number>>>;
  /** running -> awaiting_approval, keeping the request for approvers to read. */
  requestApproval(callId: string, request: ApprovalRequest, now: number): Promise<boolean>;
  /** awaiting_approval -> running with the decision, atomically; notifies approval.decided. */
  decideApproval(callId: string, decision: ApprovalDecision, now: number): Promise<DecideOutcome>;
  /** running -> awaiting_input, keeping the tool's question for people to read. */
  requestInput(callId: string, question: ElicitationRequest, now: number): Promise<boolean>;
  /** awaiting_input -> running with the answer, atomically; notifies input.answered. */
  answerInput(callId: string, answer: InputAnswer, now: number): Promise<DecideOutcome>;
  /** running -> waiting | pending: the call now waits for a result from outside, until expiresAt. */
  openCall(callId: string, status: 'waiting' | 'pending', expiresAt: number, now: number): Promise<boolean>;
  /**
   * The waiter leaves, for whatever reason (`why`, recorded as the call's result): running or waiting
   * -> pending in one step, so a later result goes to the inbox. 'resolved' when the result came
   * first: with `orInbox` (the waiter cannot hand it over) it goes to the inbox in the same step.
   */
  releaseWaiter(callId: string, now: number, leave?: LeaveWait): Promise<ReleaseOutcome>;
  /**
   * A retry with the callId of a call that never got its result (pending, or cut off by a restart):
   * the same agent, run, tool and input take it up again as running. False otherwise.
   */
  retakeCall(call: NewCall): Promise<boolean>;
  /**
   * Stores a submitted result for an open call of this run, atomically: waiting -> resolved
   * (the waiter picks it up) or pending -> resolved plus exactly one inbox message.
   */
  resolveCall(
    callId: string,
    runId: string,
    submission: Submission,
    now: number,
    waitsHere?: WaitsHere,
  ): Promise<ResolveOutcome>;
  /**
   * Stores what the agent got back; ends running / awaiting_* calls with its status, and
   * settles the call's space message (returned) when the call ended.
   */
  finishCall(callId: string, result: ToolResult, now: number): Promise<SpaceMessage | undefined>;
  /** pending calls past their expiry -> expired, each with an inbox message saying so. */
  expireCalls(now: number): Promise<CallRecord[]>;
  /** After a restart: see RecoveryReport. */
  recover(now: number): Promise<RecoveryReport>;

  /** The inbox message of a call's late result, when it went to the inbox. */
  inboxOfCall(callId: string): Promise<InboxMessage | undefined>;
  listInbox(agentId: string, opts: { after?: number; limit: number; includeAcked?: boolean }): Promise<InboxMessage[]>;
  /** Marks messages of this agent read; returns how many were newly acknowledged. */
  ackInbox(agentId: string, ids: readonly number[], now: number): Promise<number>;

  /** Appends events in order; returns their ids. */
  appendEvents(events: readonly GatewayEvent[]): Promise<number[]>;
  eventsAfter(afterId: number, filter: EventFilter, limit: number): Promise<StoredEvent[]>;
  lastEventId(): Promise<number>;
  pruneEvents(olderThan: number): Promise<number>;

  appendExecutions(entries: readonly ExecutionLogEntry[]): Promise<void>;
  listExecutions(filter: ExecutionFilter): Promise<ExecutionList>;

  loadRemembered(): Promise<Remembered[]>;
  saveRemembered(entry: Remembered): Promise<void>;

  /** The agent a session id belongs to: recorded as `agentId` on first use, never changed after. */
  claimSession(sessionId: string, agentId: string, now: number): Promise<string>;

  subscribe(listener: (notice: StoreNotice) => void): () => void;
  close(): Promise<void>;

  /** True when several gateway instances share this store (PostgreSQL). */
  readonly shared?: boolean;
  /**
   * Shared stores: called when another instance appended events, with the last id it appended (every
   * id up to it is visible by then); without one, events may have been missed (a lost connection).
   */
  watchEvents?(listener: (lastId?: number) => void): () => void;
  /** Shared stores: ends the calls of instances that died, as recover() does after a restart. */
  reclaimOrphans?(now: number): Promise<RecoveryReport>;
  /** Whether the store can be used now; absent means always (an embedded file). */
  health?(): Promise<StoreHealth>;
}
