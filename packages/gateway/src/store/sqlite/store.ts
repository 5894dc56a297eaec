// The embedded store: one SQLite file (better-sqlite3, WAL). Each state change is one atomic step, committed with the others of
// its event-loop turn before anyone is told it happened, so a crash leaves every call before or after a step, never half-way.
import type { ExecutionList, InputAnswer } from '@toolbelt/protocol';
import type Database from 'better-sqlite3';
import type {
  ApprovalDecision,
  ApprovalRequest,
  ElicitationRequest,
  ExecutionLogEntry,
  Remembered,
  ToolResult,
} from '@toolbelt/core';
import type { GatewayEvent } from '../../events/types.js';
import { callPage, callsQuery, inboxQuery } from '../shared/listings.js';
import { toCall, toMessage, type Row } from '../shared/rows.js';
import { tellListeners } from '../shared/types.js';
import type {
  CallFilter,
  CallPage,
  CallRecord,
  CallStatus,
  DecideOutcome,
  EventFilter,
  ExecutionFilter,
  GatewayStore,
  InboxMessage,
  LeaveWait,
  NewCall,
  ReleaseOutcome,
  RecoveryReport,
  StoredEvent,
  SpaceMessage,
  StoreHealth,
  StoreNotice,
  WaitNotice,
} from '../shared/types.js';
import { SqliteCalls } from './calls.js';
import type { Checkpointer } from './checkpointer.js';
import { SqliteEvents } from './events.js';
import { SqliteFile } from './file.js';
import { GroupCommit } from './group-commit.js';
import { openDatabase } from './open.js';
import type { StoreOptions } from './options.js';
import { SqliteSpaces } from './spaces.js';
import { prepareStatements, type Statements } from './statements.js';

export class SqliteStore implements GatewayStore {
  /** @internal The connection (tests and the store's own helpers); better-sqlite3's type stays out of our public types. */
  readonly db: Database.Database;
  readonly spaces: GatewayStore['spaces'];
  private readonly listeners = new Set<(n: StoreNotice) => void>();
  private readonly q: Statements;
  private readonly checkpointer: Checkpointer | undefined;
  private readonly commits: GroupCommit;
  private readonly calls: SqliteCalls;
  private readonly events: SqliteEvents;
  private readonly fileState: SqliteFile;

  constructor(
    readonly file: string,
    opts: StoreOptions = {},
  ) {
    ({ db: this.db, checkpointer: this.checkpointer } = openDatabase(file, opts));
    this.fileState = new SqliteFile(file, this.db);
    this.commits = new GroupCommit(this.db, () => this.fileState.guard());
    this.q = prepareStatements(this.db);
    const notify = (n: StoreNotice) => this.notify(n);
    this.spaces = new SqliteSpaces(this.db, this.commits, notify);
    this.calls = new SqliteCalls(this.db, this.q, this.commits, notify);
    this.events = new SqliteEvents(this.db, this.q, this.commits);
  }

  /** Each state change is one step of the group commit (see GroupCommit). */
  private write<T>(fn: () => T, steps: 'one' | 'several' = 'one'): Promise<T> {
    return this.commits.write(fn, steps);
  }

  private notify(notice: StoreNotice): void {
    tellListeners(this.listeners, notice);
  }

  createCall(c: NewCall): Promise<boolean> {
    return this.write(
      () =>
        this.q.insertCall.run(
          c.callId,
          c.runId,
          c.agentId,
          c.sessionId,
          c.tool,
          JSON.stringify(c.input ?? null),
          c.visible ? 1 : 0,
          c.createdAt,
          c.createdAt,
        ).changes === 1,
    );
  }

  async getCall(callId: string): Promise<CallRecord | undefined> {
    const row = this.q.getCall.get(callId) as Row | undefined;
    return row ? toCall(row) : undefined;
  }

  async listCalls(f: CallFilter): Promise<CallPage> {
    const q = callsQuery(f);
    const { calls, cut } = callPage(this.db.prepare(q.sql).all(...q.args) as Row[]);
    return Object.assign(calls, cut ? { cut } : {});
  }

  async countCallsByStatus(): Promise<Partial<Record<CallStatus, number>>> {
    return Object.fromEntries((this.q.countByStatus.all() as Row[]).map((r) => [r.status, r.n]));
  }

  requestApproval(callId: string, request: ApprovalRequest, now: number): Promise<boolean> {
    return this.write(() => this.q.requestApproval.run(JSON.stringify(request), now, callId).changes === 1);
  }

  decideApproval(callId: string, decision: ApprovalDecision, now: number): Promise<DecideOutcome> {
    return this.answerWait(callId, this.q.decide, decision, now, 'approval.decided');
  }

  requestInput(callId: string, question: ElicitationRequest, now: number): Promise<boolean> {
    return this.write(() => this.q.requestInput.run(JSON.stringify(question), now, callId).changes === 1);
  }

  answerInput(callId: string, answer: InputAnswer, now: number): Promise<DecideOutcome> {
    return this.answerWait(callId, this.q.answer, answer, now, 'input.answered');
  }

  /** A person's answer to a call parked for them (approval or question), moving it back to running. */
  private async answerWait(
    callId: string,
    step: Database.Statement,
    answer: unknown,
    now: number,
    kind: WaitNotice,
  ): Promise<DecideOutcome> {
    const out = await this.write((): DecideOutcome => {
      const row = this.q.getCall.get(callId) as Row | undefined;
      if (!row) return { ok: false, reason: 'not_found' };
      if (step.run(JSON.stringify(answer), now, callId).changes !== 1)
        return { ok: false, reason: 'not_awaiting', call: toCall(row) };
      return { ok: true, call: toCall(this.q.getCall.get(callId) as Row) };
    }, 'several');
    if (out.ok) this.notify({ kind, callId });
    return out;
  }

  openCall(callId: string, status: 'waiting' | 'pending', expiresAt: number, now: number): Promise<boolean> {
    return this.write(() => this.q.open.run(status, expiresAt, now, callId).changes === 1);
  }

  releaseWaiter(callId: string, now: number, leave?: LeaveWait): Promise<ReleaseOutcome> {
    return this.calls.releaseWaiter(callId, now, leave);
  }

  retakeCall(c: NewCall): Promise<boolean> {
    return this.write(
      () =>
        this.q.retake.run(c.createdAt, c.callId, c.agentId, c.runId, c.tool, JSON.stringify(c.input ?? null))
          .changes === 1,
    );
  }

  readonly resolveCall: GatewayStore['resolveCall'] = (...args) => this.calls.resolveCall(...args);

  finishCall(callId: string, result: ToolResult, now: number): Promise<SpaceMessage | undefined> {
    return this.calls.finishCall(callId, result, now);
  }

  expireCalls(now: number): Promise<CallRecord[]> {
    return this.calls.expireCalls(now);
  }

  recover(now: number): Promise<RecoveryReport> {
    return this.calls.recover(now);
  }

  async inboxOfCall(callId: string): Promise<InboxMessage | undefined> {
    return (this.q.inboxOfCall.all(callId) as Row[]).map(toMessage)[0];
  }

  async listInbox(
    agentId: string,
    o: { after?: number; limit: number; includeAcked?: boolean },
  ): Promise<InboxMessage[]> {
    const q = inboxQuery(agentId, o);
    return (this.db.prepare(q.sql).all(...q.args) as Row[]).map(toMessage);
  }

  ackInbox(agentId: string, ids: readonly number[], now: number): Promise<number> {
    return this.write(() => ids.reduce((n, id) => n + this.q.ack.run(now, agentId, id).changes, 0), 'several');
  }

  appendEvents(events: readonly GatewayEvent[]): Promise<number[]> {
    return this.events.append(events);
  }

  eventsAfter(afterId: number, f: EventFilter, limit: number): Promise<StoredEvent[]> {
    return this.events.after(afterId, f, limit);
  }

  lastEventId(): Promise<number> {
    return this.events.lastId();
  }

  pruneEvents(olderThan: number): Promise<number> {
    return this.events.prune(olderThan);
  }

  appendExecutions(entries: readonly ExecutionLogEntry[]): Promise<void> {
    return this.events.appendExecutions(entries);
  }

  listExecutions(f: ExecutionFilter): Promise<ExecutionList> {
    return this.events.listExecutions(f);
  }

  async loadRemembered(): Promise<Remembered[]> {
    return (this.q.loadRemembered.all() as Row[]).map((r) => JSON.parse(r.entry) as Remembered);
  }

  saveRemembered(entry: Remembered): Promise<void> {
    return this.write(() => void this.q.saveRemembered.run(JSON.stringify(entry), entry.createdAt));
  }

  claimSession(sessionId: string, agentId: string, now: number): Promise<string> {
    return this.write(
      () => (
        this.q.claimSession.run(sessionId, agentId, now),
        (this.q.sessionOwner.get(sessionId) as Row).agent_id as string
      ),
    );
  }

  async health(): Promise<StoreHealth> {
    return this.fileState.health();
  }

  subscribe(listener: (notice: StoreNotice) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    await this.commits.settled();
    await this.checkpointer?.stop();
    this.listeners.clear();
    if (this.db.open) this.db.close();
  }
}

/** Opens (creating and migrating when needed) the gateway database at `file`. */
export function openSqliteStore(file: string, opts: StoreOptions = {}): SqliteStore {
  return new SqliteStore(file, opts);
}
