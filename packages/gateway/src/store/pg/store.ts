// The PostgreSQL store, for several gateway instances on one database. Each state change is one
// transaction (row locks where two instances could race), and what waiters elsewhere must hear
// goes out with it as a NOTIFY: a result submitted to one instance wakes the call waiting on another.
//
// Two pools. State others act on (open calls, results, the inbox, approvals, cycles, spaces) is
// committed durably: the answer waits for the WAL flush. The record of a call running and finishing,
// events and the execution log go through `logs`, whose commits return before the flush (as SQLite's
// WAL with synchronous=NORMAL does): only a crash of the database server itself can lose their last
// fraction of a second, and the next durable commit flushes them too, since the WAL is one sequence.
import type { ExecutionList, InputAnswer } from '@toolbelt/protocol';
import { randomUUID } from 'node:crypto';
import type {
  ApprovalDecision,
  ApprovalRequest,
  ElicitationRequest,
  ExecutionLogEntry,
  Remembered,
  ToolResult,
} from '@toolbelt/core';
import type { GatewayEvent } from '../../events/types.js';
import { PgDb, type Broadcast } from './db.js';
import { PgCallLog } from './call-log.js';
import { PgCalls } from './calls.js';
import { PgEvents } from './events.js';
import { PgListener } from './listen.js';
import { claimSession, healthOf, ORPHANED } from './steps.js';
import { checkSchema, clientConfig, createPool, migrate } from './open.js';
import type { PgStoreOptions } from './options.js';
import { PgSpaces } from './spaces.js';
import { callPage, callsQuery, inboxQuery } from '../shared/listings.js';
import { SQL } from '../shared/statements.js';
import { toCall, toMessage } from '../shared/rows.js';
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
} from '../shared/types.js';

export class PgStore implements GatewayStore {
  readonly shared = true;
  readonly spaces: GatewayStore['spaces'];
  /** This instance's name in the database: the owner of the calls it runs. */
  readonly instance: string;
  private readonly listeners = new Set<(n: StoreNotice) => void>();
  private readonly eventWatchers = new Set<(lastId?: number) => void>();
  private readonly events: PgEvents;
  private readonly log: PgCallLog;
  private readonly calls: PgCalls;
  private readonly listener: PgListener;

  private constructor(
    private readonly db: PgDb,
    private readonly logs: PgDb,
    config: ReturnType<typeof clientConfig>,
    readonly schema: string,
  ) {
    this.instance = db.instanceId;
    this.spaces = new PgSpaces(db, (n) => this.notify(n));
    this.events = new PgEvents(logs);
    this.log = new PgCallLog(logs, this.instance);
    this.calls = new PgCalls(db, (n) => this.notify(n));
    this.listener = new PgListener(config, db.channel, this.instance, {
      message: (b) => this.heard(b),
      lost: () => this.everything(),
      reconnected: () => this.everything(),
    });
  }

  /** Connects, migrates (one instance at a time) and starts listening to the other instances. */
  static async open(url: string, opts: PgStoreOptions = {}): Promise<PgStore> {
    const schema = checkSchema(opts.schema ?? 'public');
    const pool = createPool(url, opts);
    const logPool = createPool(url, opts, true);
    try {
      await migrate(pool, schema);
      const [channel, instance] = [`toolbelt:${schema}`, `${schema}:${randomUUID()}`];
      const store = new PgStore(
        new PgDb(pool, channel, instance),
        new PgDb(logPool, channel, instance),
        clientConfig(url, opts),
        schema,
      );
      await store.listener.start();
      return store;
    } catch (err) {
      await Promise.all([pool.end(), logPool.end()]).catch(() => {});
      throw err;
    }
  }

  private notify(notice: StoreNotice): void {
    tellListeners(this.listeners, notice);
  }

  private heard(b: Broadcast): void {
    if (b.from === this.instance) return;
    if ('events' in b) for (const w of this.eventWatchers) w(b.events);
    else for (const n of b.notices) this.notify(n);
  }

  /** The listener went down or came back: every waiter and event stream looks again. */
  private everything(): void {
    for (const w of this.eventWatchers) w();
    this.notify({ kind: 'everything' });
  }

  createCall(c: NewCall): Promise<boolean> {
    return this.log.create(c);
  }

  async getCall(callId: string): Promise<CallRecord | undefined> {
    const row = await this.db.get(SQL.getCall, callId);
    return row ? toCall(row) : undefined;
  }

  async listCalls(f: CallFilter): Promise<CallPage> {
    const q = callsQuery(f);
    const { calls, cut } = callPage(await this.db.all(q.sql, ...q.args));
    return Object.assign(calls, cut ? { cut } : {});
  }

  async countCallsByStatus(): Promise<Partial<Record<CallStatus, number>>> {
    const out: Partial<Record<CallStatus, number>> = {};
    for (const r of await this.db.all(SQL.countByStatus)) out[r.status as CallStatus] = r.n;
    return out;
  }

  async requestApproval(callId: string, request: ApprovalRequest, now: number): Promise<boolean> {
    return (await this.db.run(SQL.requestApproval, JSON.stringify(request), now, callId)) === 1;
  }

  decideApproval(callId: string, decision: ApprovalDecision, now: number): Promise<DecideOutcome> {
    return this.calls.answerWait(callId, SQL.decide, decision, now, 'approval.decided');
  }

  async requestInput(callId: string, question: ElicitationRequest, now: number): Promise<boolean> {
    return (await this.db.run(SQL.requestInput, JSON.stringify(question), now, callId)) === 1;
  }

  answerInput(callId: string, answer: InputAnswer, now: number): Promise<DecideOutcome> {
    return this.calls.answerWait(callId, SQL.answer, answer, now, 'input.answered');
  }

  async openCall(callId: string, status: 'waiting' | 'pending', expiresAt: number, now: number): Promise<boolean> {
    return (await this.db.run(SQL.open, status, expiresAt, now, callId)) === 1;
  }

  releaseWaiter(callId: string, now: number, leave?: LeaveWait): Promise<ReleaseOutcome> {
    return this.calls.releaseWaiter(callId, now, leave);
  }

  retakeCall(c: NewCall): Promise<boolean> {
    return this.calls.retakeCall(c);
  }

  readonly resolveCall: GatewayStore['resolveCall'] = (...args) => this.calls.resolveCall(...args);

  finishCall(callId: string, result: ToolResult, now: number): Promise<SpaceMessage | undefined> {
    return this.log.finish(callId, result, now);
  }

  expireCalls(now: number): Promise<CallRecord[]> {
    return this.calls.expireCalls(now);
  }

  /** At start: calls of instances that are gone, this one's earlier life included. */
  recover(now: number): Promise<RecoveryReport> {
    return this.calls.reclaim(now, `(${ORPHANED} OR owner = '${this.instance}')`);
  }

  /** Calls of instances that died while this one runs (see recover). */
  reclaimOrphans(now: number): Promise<RecoveryReport> {
    return this.calls.reclaim(now, ORPHANED);
  }

  async inboxOfCall(callId: string): Promise<InboxMessage | undefined> {
    return (await this.db.all(SQL.inboxOfCall, callId)).map(toMessage)[0];
  }

  async listInbox(
    agentId: string,
    o: { after?: number; limit: number; includeAcked?: boolean },
  ): Promise<InboxMessage[]> {
    const q = inboxQuery(agentId, o);
    return (await this.db.all(q.sql, ...q.args)).map(toMessage);
  }

  async ackInbox(agentId: string, ids: readonly number[], now: number): Promise<number> {
    const sql = 'UPDATE inbox SET acked_at = ? WHERE agent_id = ? AND id = ANY(?::bigint[]) AND acked_at IS NULL';
    return this.db.run(sql, now, agentId, [...ids]);
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
    return (await this.db.all(SQL.loadRemembered)).map((r) => JSON.parse(r.entry) as Remembered);
  }

  async saveRemembered(entry: Remembered): Promise<void> {
    await this.db.run(SQL.saveRemembered, JSON.stringify(entry), entry.createdAt);
  }

  claimSession(sessionId: string, agentId: string, now: number): Promise<string> {
    return claimSession(this.db, sessionId, agentId, now);
  }

  subscribe(listener: (notice: StoreNotice) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  watchEvents(listener: (lastId?: number) => void): () => void {
    this.eventWatchers.add(listener);
    return () => this.eventWatchers.delete(listener);
  }

  health(): Promise<StoreHealth> {
    return healthOf(this.listener, this.db);
  }

  async close(): Promise<void> {
    this.listeners.clear();
    this.eventWatchers.clear();
    await this.listener.close();
    await Promise.all([this.db.pool.end(), this.logs.pool.end()]);
  }
}

/** Connects to PostgreSQL at `url`, creating and migrating the schema when needed. */
export function openPgStore(url: string, opts: PgStoreOptions = {}): Promise<PgStore> {
  return PgStore.open(url, opts);
}
