// Steps of the PostgreSQL store that several of its methods take inside one transaction.
import { INSTANCE_LOCK_CLASS } from './listen.js';
import type { Tx } from './db.js';
import { ACTIVE, SQL } from '../shared/statements.js';
import { interrupted, toCall, toMessage, toSpaceMessage, type Row } from '../shared/rows.js';
import { jsonOfResult } from '../../json.js';
import type {
  CallRecord,
  CallStatus,
  InboxMessage,
  LeaveWait,
  RecoveryReport,
  ReleaseOutcome,
  ResolveOutcome,
  SpaceMessage,
  StoreHealth,
  StoreNotice,
  Submission,
} from '../shared/types.js';

/** Calls whose instance is gone: no live instance holds the lock named after their owner. */
export const ORPHANED = `(owner IS NULL OR hashtext(owner)::oid NOT IN (SELECT l.objid FROM pg_locks l WHERE l.locktype = 'advisory'
  AND l.classid = ${INSTANCE_LOCK_CLASS} AND l.objsubid = 2 AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())))`;

const SETTLE = `UPDATE space_messages SET status = ?, outcome = ?, updated_at = ? WHERE call_id = ? AND status IN ('running', 'requires_action') RETURNING *`;

/** The agent a session id belongs to: the caller's when it is new. */
export async function claimSession(
  db: Pick<Tx, 'run' | 'get'>,
  sessionId: string,
  agentId: string,
  now: number,
): Promise<string> {
  await db.run(SQL.claimSession, sessionId, agentId, now);
  return (await db.get(SQL.sessionOwner, sessionId))!.agent_id as string;
}

/** The call's result or error into its agent's inbox; undefined when it is there already. */
export async function addToInbox(
  tx: Tx,
  call: Row,
  payload: Submission,
  now: number,
): Promise<InboxMessage | undefined> {
  const row = await tx.get(
    SQL.insertInbox,
    call.agent_id,
    call.run_id,
    call.call_id,
    call.tool,
    JSON.stringify(payload),
    now,
  );
  return row ? toMessage(row) : undefined;
}

/** The call's space message, settled with its outcome; undefined when it has none open. */
export async function settle(
  tx: Tx,
  callId: string,
  status: 'complete' | 'error',
  outcome: Submission,
  now: number,
): Promise<SpaceMessage | undefined> {
  const row = await tx.get(SETTLE, status, JSON.stringify(outcome), now, callId);
  return row ? toSpaceMessage(row) : undefined;
}

/** The call a result is submitted for, locked, and whether it waits on an instance that is gone. */
const RESOLVING = `SELECT *, CASE WHEN status = 'waiting' THEN ${ORPHANED} ELSE false END AS orphaned FROM tool_calls WHERE call_id = ? FOR UPDATE OF tool_calls`;

/**
 * A submitted result for an open call, in one transaction (see GatewayStore.resolveCall); `lost`: a
 * waiting call nobody waits for any more, whose result goes to the inbox.
 */
export async function resolveStep(
  tx: Tx,
  s: { callId: string; runId: string; submission: Submission; now: number },
  lost: (row: Row) => boolean,
): Promise<{ out: ResolveOutcome; notices: StoreNotice[] }> {
  const { callId, submission, now } = s;
  const row = await tx.get(RESOLVING, callId);
  if (!row || row.run_id !== s.runId) return { out: { ok: false, reason: 'not_found' }, notices: [] };
  const previous = (row.status === 'waiting' && lost(row) ? 'pending' : row.status) as CallStatus;
  const expired =
    previous === 'expired' || (previous === 'pending' && row.expires_at !== null && row.expires_at <= now);
  if (expired) return { out: { ok: false, reason: 'expired', call: toCall(row) }, notices: [] };
  if (previous !== 'waiting' && previous !== 'pending')
    return { out: { ok: false, reason: 'not_open', call: toCall(row) }, notices: [] };
  const call = toCall((await tx.get(`${SQL.resolve} RETURNING *`, JSON.stringify(submission), now, now, callId))!);
  const inbox = previous === 'pending' ? await addToInbox(tx, row, submission, now) : undefined;
  const message = await settle(tx, callId, 'error' in submission ? 'error' : 'complete', submission, now);
  const notices: StoreNotice[] = [
    { kind: 'call.resolved', callId },
    ...(inbox ? [{ kind: 'inbox.added' as const, agentId: inbox.agentId }] : []),
  ];
  await tx.tell(notices);
  return { out: { ok: true, previous, call, ...(inbox ? { inbox } : {}), ...(message ? { message } : {}) }, notices };
}

/** The waiter leaves its call in one transaction (see GatewayStore.releaseWaiter). */
export async function leaveWait(tx: Tx, callId: string, now: number, leave: LeaveWait): Promise<ReleaseOutcome> {
  const row = await tx.get(`${SQL.getCall} FOR UPDATE`, callId);
  if (!row) return { outcome: 'other' };
  if ((await tx.run(SQL.leave, jsonOfResult(leave.why), leave.expiresAt, now, callId)) === 1)
    return { outcome: 'released' };
  if (row.status !== 'resolved') return { outcome: 'other' };
  const inbox = leave.orInbox
    ? await addToInbox(tx, row, JSON.parse(row.submitted as string) as Submission, now)
    : undefined;
  if (inbox) await tx.tell([{ kind: 'inbox.added', agentId: inbox.agentId }]);
  return inbox ? { outcome: 'resolved', inbox } : { outcome: 'resolved' };
}

/** Pending calls past their expiry -> expired, each with an inbox message; rows another instance is expiring are skipped. */
export async function expireDue(tx: Tx, now: number): Promise<{ expired: CallRecord[]; notices: StoreNotice[] }> {
  const rows = await tx.all(`${SQL.dueCalls} FOR UPDATE SKIP LOCKED`, now);
  const expired: CallRecord[] = [];
  for (const row of rows) {
    await tx.run(SQL.expire, now, row.call_id);
    const error = `${row.tool} got no result before the call expired`;
    await addToInbox(tx, row, { error }, now);
    await settle(tx, row.call_id, 'error', { error }, now);
    expired.push(toCall({ ...row, status: 'expired', updated_at: now }));
  }
  const notices: StoreNotice[] = [...new Set(expired.map((c) => c.agentId))].map((agentId) => ({
    kind: 'inbox.added',
    agentId,
  }));
  await tx.tell(notices);
  return { expired, notices };
}

/** Waiting calls of `whose` reopen as pending; their running ones end as interrupted. */
export async function reclaimCalls(tx: Tx, now: number, whose: string): Promise<RecoveryReport> {
  const reopened = await tx.run(
    `UPDATE tool_calls SET status = 'pending', updated_at = ? WHERE status = 'waiting' AND ${whose}`,
    now,
  );
  const cut = await tx.all(
    `SELECT call_id, tool FROM tool_calls WHERE status IN (${ACTIVE}) AND ${whose} FOR UPDATE SKIP LOCKED`,
  );
  for (const r of cut) {
    const result = interrupted(r.call_id, r.tool);
    await tx.run(SQL.finish, JSON.stringify(result), now, 'error', r.call_id);
    await settle(tx, r.call_id, 'error', { error: result.error.message }, now);
  }
  return { reopened, interrupted: cut.length };
}

/** The SQLite store's retake, and this instance becomes the call's owner. */
export const RETAKE = SQL.retake.replace("SET status = 'running',", "SET owner = ?, status = 'running',");

/** Healthy: the listener is connected and a query answers. */
export async function healthOf(
  listener: { connected: boolean; lastError?: unknown },
  db: Pick<Tx, 'get'>,
): Promise<StoreHealth> {
  if (!listener.connected)
    return { ok: false, error: `the database connection is down: ${String(listener.lastError)}` };
  try {
    await db.get('SELECT 1');
    return { ok: true };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}
