// Steps of the SQLite store for calls whose wait ended: the waiter left, the process that ran them
// is gone, or their time ran out. Each runs inside the store's group commit, as one atomic step.
import type Database from 'better-sqlite3';
import { jsonOfResult } from '../../json.js';
import { ACTIVE } from '../shared/statements.js';
import type { Statements } from './statements.js';
import { interrupted, toCall, type Row } from '../shared/rows.js';
import type {
  CallRecord,
  InboxMessage,
  LeaveWait,
  RecoveryReport,
  ReleaseOutcome,
  Submission,
} from '../shared/types.js';

/** The waiter leaves its call (see GatewayStore.releaseWaiter); `toInbox` adds a result to the inbox. */
export function leaveStep(
  q: Statements,
  s: { callId: string; now: number; leave: LeaveWait | undefined },
  toInbox: (row: Row, payload: Submission) => InboxMessage | undefined,
): ReleaseOutcome {
  const { callId, now, leave } = s;
  if (!leave)
    return { outcome: q.transition.run('pending', now, callId, 'waiting').changes === 1 ? 'released' : 'other' };
  if (q.leave.run(jsonOfResult(leave.why), leave.expiresAt, now, callId).changes === 1) return { outcome: 'released' };
  const row = q.getCall.get(callId) as Row | undefined;
  if (row?.status !== 'resolved') return { outcome: 'other' };
  const inbox = leave.orInbox ? toInbox(row, JSON.parse(row.submitted) as Submission) : undefined;
  return inbox ? { outcome: 'resolved', inbox } : { outcome: 'resolved' };
}

/** After a restart: waiting calls reopen as pending; running ones end as interrupted (`settle` their space messages). */
export function recoverStep(
  db: Database.Database,
  q: Statements,
  now: number,
  settle: (callId: string, error: string) => void,
): RecoveryReport {
  const reopened = db
    .prepare(`UPDATE tool_calls SET status = 'pending', updated_at = ? WHERE status = 'waiting'`)
    .run(now).changes;
  const cut = db.prepare(`SELECT call_id, tool FROM tool_calls WHERE status IN (${ACTIVE})`).all() as Row[];
  for (const r of cut) {
    const result = interrupted(r.call_id, r.tool);
    q.finish.run(JSON.stringify(result), now, 'error', r.call_id);
    settle(r.call_id, result.error.message);
  }
  return { reopened, interrupted: cut.length };
}

/** Pending calls past their expiry -> expired; `tell` gives each one's agent the news. */
export function expireStep(q: Statements, now: number, tell: (row: Row, error: string) => void): CallRecord[] {
  const out: CallRecord[] = [];
  for (const row of q.dueCalls.all(now) as Row[]) {
    if (q.expire.run(now, row.call_id).changes !== 1) continue;
    tell(row, `${row.tool} got no result before the call expired`);
    out.push(toCall({ ...row, status: 'expired', updated_at: now }));
  }
  return out;
}
