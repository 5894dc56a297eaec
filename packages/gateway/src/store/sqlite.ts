// The embedded store: one SQLite file (better-sqlite3, WAL). Each state change is one atomic step, committed with the others of
// its event-loop turn before anyone is told it happened, so a crash leaves every call before or after a step, never half-way.
import type Database from 'better-sqlite3';
import type {
  ApprovalDecision,
  ApprovalRequest,
  ElicitationRequest,
  ExecutionLogEntry,
  Remembered,
  ToolResult,
} from '@toolbelt/core';
import type { ExecutionList, InputAnswer } from '@toolbelt/protocol';
import { spaceOf, type GatewayEvent } from '../events/types.js';
import { jsonOfEntry, jsonOfEvent, jsonOfResult } from '../json.js';
import type { Checkpointer } from './checkpointer.js';
import { GroupCommit } from './group-commit.js';
import { SqliteFile } from './sqlite-file.js';
import { RowInserter } from './row-inserter.js';
import { openDatabase } from './sqlite-open.js';
import type { StoreOptions } from './sqlite-options.js';
import { callPage, callsQuery, inboxQuery, eventsAfterQuery, executionPage, executionsQuery } from './listings.js';
import { lastEventOlderThan, prepareStatements, type Statements } from './sqlite-statements.js';
import { expireStep, leaveStep, recoverStep } from './sqlite-leave.js';
import { outcomeOf, toCall, toMessage, toSpaceMessage, type Row } from './sqlite-rows.js';
import { SqliteSpaces } from './sqlite-spaces.js';
import { tellListeners } from './types.js';
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
  ResolveOutcome,
  StoredEvent,
  SpaceMessage,
  StoreHealth,
  StoreNotice,
  Submission,
  WaitNotice,
  WaitsHere,
} from './types.js';

export { StoreVersionError, type StoreOptions } from './sqlite-options.js';

const FINAL: Record<ToolResult['status'], CallStatus> = {
  success: 'success',
  error: 'error',
  rejected: 'rejected',
  pending: 'pending',
};
const EVENT_COLUMNS = ['ts', 'type', 'run_id', 'agent_id', 'space_id', 'data'] as const;
const EXECUTION_COLUMNS = ['call_id', 'tool', 'status', 'agent_id', 'run_id', 'timestamp', 'entry'] as const;

export class SqliteStore implements GatewayStore {
  /** @internal The connection (tests and the store's own helpers); better-sqlite3's type stays out of our public types. */
  readonly db: Database.Database;
  readonly spaces: GatewayStore['spaces'];
  private readonly listeners = new Set<(n: StoreNotice) => void>();
  private readonly q: Statements;
  private readonly checkpointer: Checkpointer | undefined;
  private readonly commits: GroupCommit;
  private readonly rows: RowInserter;
  private readonly fileState: SqliteFile;

  constructor(
    readonly file: string,
    opts: StoreOptions = {},
  ) {
    ({ db: this.db, checkpointer: this.checkpointer } = openDatabase(file, opts));
    this.fileState = new SqliteFile(file, this.db);
    this.commits = new GroupCommit(this.db, () => this.fileState.guard());
    this.rows = new RowInserter(this.db);
    this.q = prepareStatements(this.db);
    this.spaces = new SqliteSpaces(this.db, this.commits, (n) => this.notify(n));
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

  async releaseWaiter(callId: string, now: number, leave?: LeaveWait): Promise<ReleaseOutcome> {
    const out = await this.write(
      () => leaveStep(this.q, { callId, now, leave }, (row, s) => this.addToInbox(row, s, now)),
      'several',
    );
    if (out.inbox) this.notify({ kind: 'inbox.added', agentId: out.inbox.agentId });
    return out;
  }

  retakeCall(c: NewCall): Promise<boolean> {
    return this.write(
      () =>
        this.q.retake.run(c.createdAt, c.callId, c.agentId, c.runId, c.tool, JSON.stringify(c.input ?? null))
          .changes === 1,
    );
  }

  async resolveCall(
    callId: string,
    runId: string,
    submission: Submission,
    now: number,
    waitsHere?: WaitsHere,
  ): Promise<ResolveOutcome> {
    const out = await this.write((): ResolveOutcome => {
      const row = this.q.getCall.get(callId) as Row | undefined;
      if (!row || row.run_id !== runId) return { ok: false, reason: 'not_found' };
      // One process: a waiting call nobody here waits for has lost its waiter; its result goes to the inbox.
      const previous = (
        row.status === 'waiting' && waitsHere && !waitsHere(callId) ? 'pending' : row.status
      ) as CallStatus;
      const expired =
        previous === 'expired' || (previous === 'pending' && row.expires_at !== null && row.expires_at <= now);
      if (expired) return { ok: false, reason: 'expired', call: toCall(row) };
      if (previous !== 'waiting' && previous !== 'pending') return { ok: false, reason: 'not_open', call: toCall(row) };
      this.q.resolve.run(JSON.stringify(submission), now, now, callId);
      const inbox = previous === 'pending' ? this.addToInbox(row, submission, now) : undefined;
      const call = toCall(this.q.getCall.get(callId) as Row);
      const message = this.settleMessage(callId, 'error' in submission ? 'error' : 'complete', submission, now);
      return { ok: true, previous, call, ...(inbox ? { inbox } : {}), ...(message ? { message } : {}) };
    }, 'several');
    if (out.ok) this.notify({ kind: 'call.resolved', callId });
    if (out.ok && out.inbox) this.notify({ kind: 'inbox.added', agentId: out.inbox.agentId });
    return out;
  }

  private addToInbox(call: Row, payload: Submission, now: number): InboxMessage | undefined {
    const row = this.q.insertInbox.get(
      call.agent_id,
      call.run_id,
      call.call_id,
      call.tool,
      JSON.stringify(payload),
      now,
    ) as Row | undefined;
    return row ? toMessage(row) : undefined;
  }

  finishCall(callId: string, result: ToolResult, now: number): Promise<SpaceMessage | undefined> {
    // One statement for an invisible call, as before spaces; a visible one that ended settles its message too.
    return this.write(() => {
      const row = this.q.finishReturning.get(jsonOfResult(result), now, FINAL[result.status], callId) as
        Row | undefined;
      if (!row?.visible || (row.status !== 'success' && row.status !== 'error' && row.status !== 'rejected'))
        return undefined;
      return this.settleMessage(callId, row.status === 'success' ? 'complete' : 'error', outcomeOf(result), now);
    });
  }

  /** The call's space message, settled with its outcome; undefined when it has none open. */
  private settleMessage(
    callId: string,
    status: 'complete' | 'error',
    outcome: Submission,
    now: number,
  ): SpaceMessage | undefined {
    if (this.q.settleMessage.run(status, JSON.stringify(outcome), now, callId).changes !== 1) return undefined;
    return toSpaceMessage(this.q.getCallMessage.get(callId) as Row);
  }

  expireCalls(now: number): Promise<CallRecord[]> {
    const told = (row: Row, error: string) => (
      this.addToInbox(row, { error }, now),
      this.settleMessage(row.call_id, 'error', { error }, now)
    );
    return this.write(() => expireStep(this.q, now, told), 'several').then((out) => {
      for (const agentId of new Set(out.map((c) => c.agentId))) this.notify({ kind: 'inbox.added', agentId });
      return out;
    });
  }

  recover(now: number): Promise<RecoveryReport> {
    return this.write(
      () => recoverStep(this.db, this.q, now, (callId, error) => this.settleMessage(callId, 'error', { error }, now)),
      'several',
    );
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
    return this.write(() => {
      const ids: number[] = new Array(events.length);
      this.rows.insert(
        'events',
        EVENT_COLUMNS,
        events,
        (e, args) => args.push(e.ts, e.type, e.runId ?? null, e.agentId ?? null, spaceOf(e) ?? null, jsonOfEvent(e)),
        (from, to, lastId) => {
          // One writer and AUTOINCREMENT: the rows of one statement get consecutive ids, in order.
          for (let i = from; i < to; i++) ids[i] = lastId - (to - 1 - i);
        },
      );
      return ids;
    }, 'several');
  }

  async eventsAfter(afterId: number, f: EventFilter, limit: number): Promise<StoredEvent[]> {
    const q = eventsAfterQuery(afterId, f, limit);
    const rows = this.db.prepare(q.sql).all(...q.args) as Row[];
    return rows.map((r) => ({ id: r.id, event: JSON.parse(r.data) as GatewayEvent }));
  }

  async lastEventId(): Promise<number> {
    return (this.q.lastEvent.get() as Row).id;
  }

  pruneEvents(olderThan: number): Promise<number> {
    return this.write(() => {
      const last = lastEventOlderThan(this.q, olderThan);
      return last ? this.q.pruneEvents.run(last).changes : 0;
    });
  }

  appendExecutions(entries: readonly ExecutionLogEntry[]): Promise<void> {
    return this.write(() => {
      this.rows.insert('executions', EXECUTION_COLUMNS, entries, (e, args) =>
        args.push(e.callId, e.tool, e.status, e.agentId ?? null, e.runId ?? null, e.timestamp, jsonOfEntry(e)),
      );
    }, 'several');
  }

  async listExecutions(f: ExecutionFilter): Promise<ExecutionList> {
    const q = executionsQuery(f);
    return executionPage(this.db.prepare(q.sql).all(...q.args) as Row[], f.limit);
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
