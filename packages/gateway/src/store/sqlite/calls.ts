// The steps of a call that reach beyond its row in the SQLite store: a waiter leaving, a result
// submitted, a call finishing or expiring, and recovery at start. Each may add to the inbox and
// settle the call's space message, all in the one atomic step of the group commit.
import type Database from 'better-sqlite3';
import type { ToolResult } from '@toolbelt/core';
import { jsonOfResult } from '../../json.js';
import { outcomeOf, toCall, toMessage, toSpaceMessage, type Row } from '../shared/rows.js';
import type {
  CallRecord,
  GatewayStore,
  CallStatus,
  InboxMessage,
  LeaveWait,
  RecoveryReport,
  ReleaseOutcome,
  ResolveOutcome,
  SpaceMessage,
  StoreNotice,
  Submission,
} from '../shared/types.js';
import type { GroupCommit } from './group-commit.js';
import { expireStep, leaveStep, recoverStep } from './leave.js';
import type { Statements } from './statements.js';

const FINAL: Record<ToolResult['status'], CallStatus> = {
  success: 'success',
  error: 'error',
  rejected: 'rejected',
  pending: 'pending',
};

export class SqliteCalls {
  constructor(
    private readonly db: Database.Database,
    private readonly q: Statements,
    private readonly commits: GroupCommit,
    private readonly notify: (n: StoreNotice) => void,
  ) {}

  async releaseWaiter(callId: string, now: number, leave?: LeaveWait): Promise<ReleaseOutcome> {
    const out = await this.commits.write(
      () => leaveStep(this.q, { callId, now, leave }, (row, s) => this.addToInbox(row, s, now)),
      'several',
    );
    if (out.inbox) this.notify({ kind: 'inbox.added', agentId: out.inbox.agentId });
    return out;
  }

  readonly resolveCall: GatewayStore['resolveCall'] = async (callId, runId, submission, now, waitsHere) => {
    const out = await this.commits.write((): ResolveOutcome => {
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
  };

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
    return this.commits.write(() => {
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
    return this.commits
      .write(() => expireStep(this.q, now, told), 'several')
      .then((out) => {
        for (const agentId of new Set(out.map((c) => c.agentId))) this.notify({ kind: 'inbox.added', agentId });
        return out;
      });
  }

  recover(now: number): Promise<RecoveryReport> {
    return this.commits.write(
      () => recoverStep(this.db, this.q, now, (callId, error) => this.settleMessage(callId, 'error', { error }, now)),
      'several',
    );
  }
}
