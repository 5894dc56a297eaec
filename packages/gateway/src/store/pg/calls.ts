// The steps of a call others wait on, in the PostgreSQL store: a person's answer, a waiter leaving,
// a result submitted, calls expiring or cut off. Each is one transaction on the durable pool; its
// notices go to the other instances with the commit (NOTIFY) and to this one's listeners after it.
import { toCall, type Row } from '../shared/rows.js';
import { SQL } from '../shared/statements.js';
import type {
  CallRecord,
  GatewayStore,
  DecideOutcome,
  LeaveWait,
  NewCall,
  RecoveryReport,
  ReleaseOutcome,
  StoreNotice,
  WaitNotice,
} from '../shared/types.js';
import type { PgDb } from './db.js';
import { expireDue, leaveWait, reclaimCalls, resolveStep, RETAKE } from './steps.js';

export class PgCalls {
  constructor(
    private readonly db: PgDb,
    private readonly notify: (n: StoreNotice) => void,
  ) {}

  /** A person's answer to a call parked for them (approval or question), moving it back to running. */
  async answerWait(
    callId: string,
    step: string,
    answer: unknown,
    now: number,
    kind: WaitNotice,
  ): Promise<DecideOutcome> {
    const out = await this.db.tx(async (tx): Promise<DecideOutcome> => {
      const row = await tx.get(`${SQL.getCall} FOR UPDATE`, callId);
      if (!row) return { ok: false, reason: 'not_found' };
      const answered = await tx.get(`${step} RETURNING *`, JSON.stringify(answer), now, callId);
      if (!answered) return { ok: false, reason: 'not_awaiting', call: toCall(row) };
      await tx.tell([{ kind, callId }]);
      return { ok: true, call: toCall(answered) };
    });
    if (out.ok) this.notify({ kind, callId });
    return out;
  }

  async releaseWaiter(callId: string, now: number, leave?: LeaveWait): Promise<ReleaseOutcome> {
    if (!leave)
      return {
        outcome: (await this.db.run(SQL.transition, 'pending', now, callId, 'waiting')) === 1 ? 'released' : 'other',
      };
    const out = await this.db.tx((tx) => leaveWait(tx, callId, now, leave));
    if (out.inbox) this.notify({ kind: 'inbox.added', agentId: out.inbox.agentId });
    return out;
  }

  async retakeCall(c: NewCall): Promise<boolean> {
    const input = JSON.stringify(c.input ?? null);
    const args = [this.db.instanceId, c.createdAt, c.callId, c.agentId, c.runId, c.tool, input];
    return (await this.db.run(RETAKE, ...args)) === 1;
  }

  readonly resolveCall: GatewayStore['resolveCall'] = async (callId, runId, submission, now, waitsHere) => {
    const instance = this.db.instanceId;
    // A waiting call whose instance is gone, or whose waiter here failed, has nobody waiting: its result goes to the inbox.
    const lost = (row: Row) =>
      Boolean(row.orphaned) || (row.owner === instance && waitsHere !== undefined && !waitsHere(callId));
    const { out, notices } = await this.db.tx((tx) => resolveStep(tx, { callId, runId, submission, now }, lost));
    if (out.ok) for (const n of notices) this.notify(n);
    return out;
  };

  async expireCalls(now: number): Promise<CallRecord[]> {
    const { expired, notices } = await this.db.tx((tx) => expireDue(tx, now));
    for (const n of notices) this.notify(n);
    return expired;
  }

  /** Calls cut off by an instance's end: `whose` picks them (see PgStore.recover and reclaimOrphans). */
  reclaim(now: number, whose: string): Promise<RecoveryReport> {
    return this.db.tx((tx) => reclaimCalls(tx, now, whose));
  }
}
