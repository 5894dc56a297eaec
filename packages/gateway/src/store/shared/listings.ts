// The listing queries both stores run as written (SQLite and PostgreSQL take the same SQL here):
// each filter in one place, so the two backends can never list differently.
import { SqlWhere } from './sql-where.js';
import { CALL_LISTING_COLUMNS, EXECUTION_LISTING_COLUMNS, PAGE_CHARS } from './listing-bounds.js';
export { callPage, executionPage } from './listing-bounds.js';
import type { CallFilter, EventFilter, ExecutionFilter } from './types.js';

export interface Query {
  sql: string;
  args: unknown[];
}

/** Calls, newest first. */
export function callsQuery(f: CallFilter): Query {
  const where = new SqlWhere()
    .add('run_id = ?', f.runId)
    .in('agent_id', f.agentIds)
    .inUnlessEmpty('status', f.statuses)
    .add('tool = ?', f.tool)
    .add('seq < ?', f.before)
    .when(f.askedPerson, '(approval IS NOT NULL OR question IS NOT NULL)');
  return {
    sql: `SELECT ${CALL_LISTING_COLUMNS} FROM tool_calls ${where.sql} ORDER BY seq DESC LIMIT ?`,
    args: [...where.args, f.limit],
  };
}

/** Events after `afterId`, in id order; an empty page means there are no more. */
export function eventsAfterQuery(afterId: number, f: EventFilter, limit: number): Query {
  const where = new SqlWhere()
    .add('id > ?', afterId)
    .add('run_id = ?', f.runId)
    .in('agent_id', f.agentIds)
    .inUnlessEmpty('type', f.types)
    .add('space_id = ?', f.spaceId);
  // Whole events, but only as many as fit PAGE_CHARS (at least one): a run of large events never
  // loads hundreds of megabytes at once. A page may end early; the next one starts after it.
  const sized = `SELECT id, data, SUM(length(data)) OVER (ORDER BY id) - length(data) AS before_it FROM events ${where.sql} ORDER BY id LIMIT ?`;
  return {
    sql: `SELECT id, data FROM (${sized}) page WHERE before_it < ? ORDER BY id`,
    args: [...where.args, limit, PAGE_CHARS],
  };
}

/** Execution-log entries, newest first. */
export function executionsQuery(f: ExecutionFilter): Query {
  const where = new SqlWhere()
    .add('tool = ?', f.tool)
    .add('status = ?', f.status)
    .add('agent_id = ?', f.agentId)
    .add('run_id = ?', f.runId)
    .add('timestamp >= ?', f.since)
    .add('id < ?', f.before);
  return {
    sql: `SELECT ${EXECUTION_LISTING_COLUMNS} FROM executions ${where.sql} ORDER BY id DESC LIMIT ?`,
    args: [...where.args, f.limit],
  };
}

/** An agent's inbox after `after`, oldest first, as many as fit PAGE_CHARS (at least one): read on with the last id. */
export function inboxQuery(agentId: string, o: { after?: number; limit: number; includeAcked?: boolean }): Query {
  const unread = o.includeAcked ? '' : 'AND acked_at IS NULL';
  const sized = `SELECT *, SUM(length(payload)) OVER (ORDER BY id) - length(payload) AS before_it FROM inbox WHERE agent_id = ? AND id > ? ${unread} ORDER BY id LIMIT ?`;
  return {
    sql: `SELECT * FROM (${sized}) page WHERE before_it < ? ORDER BY id`,
    args: [agentId, o.after ?? 0, o.limit, PAGE_CHARS],
  };
}
