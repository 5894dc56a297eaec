// Events and the execution log in the SQLite store: appended many rows a statement through the
// group commit, read forward (events, for replay) or newest first (the execution log).
import type Database from 'better-sqlite3';
import type { ExecutionLogEntry } from '@toolbelt/core';
import type { ExecutionList } from '@toolbelt/protocol';
import { spaceOf, type GatewayEvent } from '../../events/types.js';
import { jsonOfEntry, jsonOfEvent } from '../../json.js';
import { eventsAfterQuery, executionPage, executionsQuery } from '../shared/listings.js';
import type { Row } from '../shared/rows.js';
import type { EventFilter, ExecutionFilter, StoredEvent } from '../shared/types.js';
import type { GroupCommit } from './group-commit.js';
import { RowInserter } from './row-inserter.js';
import { lastEventOlderThan, type Statements } from './statements.js';

const EVENT_COLUMNS = ['ts', 'type', 'run_id', 'agent_id', 'space_id', 'data'] as const;
const EXECUTION_COLUMNS = ['call_id', 'tool', 'status', 'agent_id', 'run_id', 'timestamp', 'entry'] as const;

export class SqliteEvents {
  private readonly rows: RowInserter;

  constructor(
    private readonly db: Database.Database,
    private readonly q: Statements,
    private readonly commits: GroupCommit,
  ) {
    this.rows = new RowInserter(db);
  }

  append(events: readonly GatewayEvent[]): Promise<number[]> {
    return this.commits.write(() => {
      const ids: number[] = new Array(events.length);
      this.rows.insert(
        'events',
        EVENT_COLUMNS,
        events,
        (e, args) => args.push(e.ts, e.type, e.runId ?? null, e.agentId ?? null, spaceOf(e) ?? null, jsonOfEvent(e)),
        (from, to, lastId) => {
          // One writer and AUTOINCREMENT: the rows of one statement get consecutive ids, in order.
          for (let i = from; i < to; i++) ids[i] = lastId - (to - 1 - i);
        },
      );
      return ids;
    }, 'several');
  }

  async after(afterId: number, f: EventFilter, limit: number): Promise<StoredEvent[]> {
    const q = eventsAfterQuery(afterId, f, limit);
    const rows = this.db.prepare(q.sql).all(...q.args) as Row[];
    return rows.map((r) => ({ id: r.id, event: JSON.parse(r.data) as GatewayEvent }));
  }

  async lastId(): Promise<number> {
    return (this.q.lastEvent.get() as Row).id;
  }

  prune(olderThan: number): Promise<number> {
    return this.commits.write(() => {
      const last = lastEventOlderThan(this.q, olderThan);
      return last ? this.q.pruneEvents.run(last).changes : 0;
    });
  }

  appendExecutions(entries: readonly ExecutionLogEntry[]): Promise<void> {
    return this.commits.write(() => {
      this.rows.insert('executions', EXECUTION_COLUMNS, entries, (e, args) =>
        args.push(e.callId, e.tool, e.status, e.agentId ?? null, e.runId ?? null, e.timestamp, jsonOfEntry(e)),
      );
    }, 'several');
  }

  async listExecutions(f: ExecutionFilter): Promise<ExecutionList> {
    const q = executionsQuery(f);
    return executionPage(this.db.prepare(q.sql).all(...q.args) as Row[], f.limit);
  }
}
