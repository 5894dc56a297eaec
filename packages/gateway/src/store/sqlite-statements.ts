// The store's fixed statements, prepared once when the database opens. Listing queries, whose
// WHERE clause depends on the filter, are prepared where they are built.
import type Database from 'better-sqlite3';

const SQL = {
  insertCall: `INSERT INTO tool_calls (call_id, run_id, agent_id, session_id, tool, input, status, visible, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?) ON CONFLICT (call_id) DO NOTHING`,
  getCall: 'SELECT * FROM tool_calls WHERE call_id = ?',
  transition: 'UPDATE tool_calls SET status = ?, updated_at = ? WHERE call_id = ? AND status = ?',
  requestApproval: `UPDATE tool_calls SET status = 'awaiting_approval', approval = ?, updated_at = ? WHERE call_id = ? AND status = 'running'`,
  decide: `UPDATE tool_calls SET status = 'running', decision = ?, updated_at = ? WHERE call_id = ? AND status = 'awaiting_approval'`,
  open: `UPDATE tool_calls SET status = ?, expires_at = ?, updated_at = ? WHERE call_id = ? AND status = 'running'`,
  resolve: `UPDATE tool_calls SET status = 'resolved', submitted = ?, resolved_at = ?, updated_at = ? WHERE call_id = ?`,
  finish: `UPDATE tool_calls SET result = ?, updated_at = ?,
    status = CASE WHEN status IN ('running', 'awaiting_approval') THEN ? ELSE status END WHERE call_id = ?`,
  dueCalls: `SELECT * FROM tool_calls WHERE status = 'pending' AND expires_at IS NOT NULL AND expires_at <= ?`,
  expire: `UPDATE tool_calls SET status = 'expired', updated_at = ? WHERE call_id = ? AND status = 'pending'`,
  insertInbox: `INSERT INTO inbox (agent_id, run_id, call_id, tool, payload, created_at) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (call_id) DO NOTHING RETURNING *`,
  ack: `UPDATE inbox SET acked_at = ? WHERE agent_id = ? AND id = ? AND acked_at IS NULL`,
  lastEvent: 'SELECT COALESCE(MAX(id), 0) AS id FROM events',
  pruneEvents: 'DELETE FROM events WHERE id <= ?',
  eventTsAt: 'SELECT id, ts FROM events WHERE id >= ? ORDER BY id LIMIT 1',
  eventBounds: 'SELECT COALESCE(MIN(id), 0) AS lo, COALESCE(MAX(id), 0) AS hi FROM events',
  loadRemembered: 'SELECT entry FROM remembered_approvals ORDER BY id',
  saveRemembered: 'INSERT INTO remembered_approvals (entry, created_at) VALUES (?, ?)',
  countByStatus: 'SELECT status, COUNT(*) AS n FROM tool_calls GROUP BY status',
} as const;

export type Statements = Record<keyof typeof SQL, Database.Statement>;

export function prepareStatements(db: Database.Database): Statements {
  return Object.fromEntries(Object.entries(SQL).map(([name, sql]) => [name, db.prepare(sql)])) as Statements;
}
