// The listing queries both stores run as written (SQLite and PostgreSQL take the same SQL here):
// each filter in one place, so the two backends can never list differently.
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
    .add('seq < ?', f.before);
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
    .add('timestamp >= ?', f.since);
  return { sql: `SELECT entry FROM executions ${where.sql} ORDER BY id DESC LIMIT ?`, args: [...where.args, f.limit] };
}
