// The store's fixed statements, in ? placeholders: SQLite prepares them once when the database
// opens, PostgreSQL names them per connection. Listing queries, whose WHERE clause depends on the
// filter, are built in listings.ts.

/** Statuses of a call the executor still has: finishing it ends these, a restart cuts them off. */
export const ACTIVE = `'running', 'awaiting_approval', 'awaiting_input'`;

export const SQL = {
  insertCall: `INSERT INTO tool_calls (call_id, run_id, agent_id, session_id, tool, input, status, visible, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?) ON CONFLICT (call_id) DO NOTHING`,
  getCall: 'SELECT * FROM tool_calls WHERE call_id = ?',
  transition: 'UPDATE tool_calls SET status = ?, updated_at = ? WHERE call_id = ? AND status = ?',
  requestApproval: `UPDATE tool_calls SET status = 'awaiting_approval', approval = ?, updated_at = ? WHERE call_id = ? AND status = 'running'`,
  decide: `UPDATE tool_calls SET status = 'running', decision = ?, updated_at = ? WHERE call_id = ? AND status = 'awaiting_approval'`,
  // A call may ask more than once: a new question clears the last answer.
  requestInput: `UPDATE tool_calls SET status = 'awaiting_input', question = ?, answer = NULL, updated_at = ? WHERE call_id = ? AND status = 'running'`,
  answer: `UPDATE tool_calls SET status = 'running', answer = ?, updated_at = ? WHERE call_id = ? AND status = 'awaiting_input'`,
  open: `UPDATE tool_calls SET status = ?, expires_at = ?, updated_at = ? WHERE call_id = ? AND status = 'running'`,
  // The waiter left (see GatewayStore.releaseWaiter): a call not yet open gets its expiry here.
  leave: `UPDATE tool_calls SET status = 'pending', result = ?, expires_at = COALESCE(expires_at, ?), updated_at = ?
    WHERE call_id = ? AND status IN ('running', 'waiting')`,
  // A retry of a call that never got its result: same agent, run, tool and input (see GatewayStore.retakeCall).
  retake: `UPDATE tool_calls SET status = 'running', result = NULL, expires_at = NULL, updated_at = ?
    WHERE call_id = ? AND agent_id = ? AND run_id = ? AND tool = ? AND input = ?
      AND (status = 'pending' OR (status = 'error' AND result LIKE '%"code":"ABORTED"%'))`,
  resolve: `UPDATE tool_calls SET status = 'resolved', submitted = ?, resolved_at = ?, updated_at = ? WHERE call_id = ?`,
  finish: `UPDATE tool_calls SET result = ?, updated_at = ?,
    status = CASE WHEN status IN (${ACTIVE}) THEN ? ELSE status END WHERE call_id = ?`,
  // finish, telling what the call became and whether it has a space message to settle.
  finishReturning: `UPDATE tool_calls SET result = ?, updated_at = ?,
    status = CASE WHEN status IN (${ACTIVE}) THEN ? ELSE status END WHERE call_id = ? RETURNING status, visible`,
  dueCalls: `SELECT * FROM tool_calls WHERE status = 'pending' AND expires_at IS NOT NULL AND expires_at <= ?`,
  expire: `UPDATE tool_calls SET status = 'expired', updated_at = ? WHERE call_id = ? AND status = 'pending'`,
  insertInbox: `INSERT INTO inbox (agent_id, kind, run_id, call_id, tool, payload, created_at) VALUES (?, 'tool_result', ?, ?, ?, ?, ?)
    ON CONFLICT (call_id) DO NOTHING RETURNING *`,
  inboxOfCall: 'SELECT * FROM inbox WHERE call_id = ?',
  ack: `UPDATE inbox SET acked_at = ? WHERE agent_id = ? AND id = ? AND acked_at IS NULL`,
  lastEvent: 'SELECT COALESCE(MAX(id), 0) AS id FROM events',
  pruneEvents: 'DELETE FROM events WHERE id <= ?',
  eventTsAt: 'SELECT id, ts FROM events WHERE id >= ? ORDER BY id LIMIT 1',
  eventBounds: 'SELECT COALESCE(MIN(id), 0) AS lo, COALESCE(MAX(id), 0) AS hi FROM events',
  loadRemembered: 'SELECT entry FROM remembered_approvals ORDER BY id',
  saveRemembered: 'INSERT INTO remembered_approvals (entry, created_at) VALUES (?, ?)',
  // The space message of a call follows the call: its outcome once the call ends or is answered.
  settleMessage: `UPDATE space_messages SET status = ?, outcome = ?, updated_at = ? WHERE call_id = ? AND status IN ('running', 'requires_action')`,
  getCallMessage: 'SELECT * FROM space_messages WHERE call_id = ?',
  countByStatus: 'SELECT status, COUNT(*) AS n FROM tool_calls GROUP BY status',
  claimSession:
    'INSERT INTO agent_sessions (session_id, agent_id, created_at) VALUES (?, ?, ?) ON CONFLICT (session_id) DO NOTHING',
  sessionOwner: 'SELECT agent_id FROM agent_sessions WHERE session_id = ?',
} as const;

/** How long a think cycle holds its messages when the gateway's config says nothing (extended by a heartbeat). */
export const DEFAULT_CYCLE_LEASE_MS = 5 * 60_000;

/** Think cycles: SQL both stores run (with ? placeholders). */
export const CYCLE_SQL = {
  // Unread messages no live cycle holds: never taken, or held by a cycle whose lease ran out undone.
  free: `agent_id = ? AND acked_at IS NULL AND (cycle_id IS NULL OR cycle_id IN
    (SELECT id FROM cycles WHERE agent_id = ? AND done_at IS NULL AND COALESCE(lease_until, 0) <= ?))`,
  insert: 'INSERT INTO cycles (id, agent_id, created_at, lease_until) VALUES (?, ?, ?, ?)',
  done: 'UPDATE cycles SET done_at = COALESCE(done_at, ?) WHERE id = ? AND agent_id = ?',
  ack: 'UPDATE inbox SET acked_at = ? WHERE cycle_id = ? AND acked_at IS NULL',
  extend: 'UPDATE cycles SET lease_until = ? WHERE id = ? AND agent_id = ? AND done_at IS NULL',
} as const;
