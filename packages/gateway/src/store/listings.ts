// The listing queries both stores run as written (SQLite and PostgreSQL take the same SQL here):
// each filter in one place, so the two backends can never list differently.
import type { ExecutionList, ExecutionLogEntry } from '@toolbelt/core';
import { SqlWhere } from './sql-where.js';
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
  return { sql: `SELECT * FROM tool_calls ${where.sql} ORDER BY seq DESC LIMIT ?`, args: [...where.args, f.limit] };
}

/** Events after `afterId`, in id order. */
export function eventsAfterQuery(afterId: number, f: EventFilter, limit: number): Query {
  const where = new SqlWhere()
    .add('id > ?', afterId)
    .add('run_id = ?', f.runId)
    .in('agent_id', f.agentIds)
    .inUnlessEmpty('type', f.types)
    .add('space_id = ?', f.spaceId);
  return { sql: `SELECT id, data FROM events ${where.sql} ORDER BY id LIMIT ?`, args: [...where.args, limit] };
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
  return { sql: `SELECT id, entry FROM executions ${where.sql} ORDER BY id DESC LIMIT ?`, args: [...where.args, f.limit] };
}

/** A page of the execution log from its rows (id, entry), with the cursor to the next one when there may be more. */
export function executionPage(rows: { id: number | string; entry: string }[], limit: number): ExecutionList {
  const entries = rows.map((r) => JSON.parse(r.entry) as ExecutionLogEntry);
  return rows.length === limit && rows.length > 0 ? { entries, nextBefore: Number(rows[rows.length - 1]!.id) } : { entries };
}
