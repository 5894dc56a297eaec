// The PostgreSQL store's append-only logs: events (in one order across instances) and executions.
import type { ExecutionLogEntry } from '@toolbelt/core';
import type { ExecutionList } from '@toolbelt/protocol';
import { spaceOf, type GatewayEvent } from '../../events/types.js';
import { jsonOfEntry, jsonOfEvent } from '../../json.js';
import type { PgDb } from './db.js';
import { eventsAfterQuery, executionPage, executionsQuery } from '../shared/listings.js';
import { SQL } from '../shared/statements.js';
import type { EventFilter, ExecutionFilter, StoredEvent } from '../shared/types.js';

export class PgEvents {
  constructor(private readonly db: PgDb) {}

  /**
   * Appends events under a transaction-scoped lock, so ids become visible in the order they were
   * given out: a reader that has seen id n has seen every id below it, on any instance.
   */
  async append(events: readonly GatewayEvent[]): Promise<number[]> {
    if (!events.length) return [];
    // One round trip: lock, insert and NOTIFY the other instances (the append_events function).
    const rows = await this.db.all(
      'SELECT append_events(?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?, ?) AS id',
      events.map((e) => e.ts),
      events.map((e) => e.type),
      events.map((e) => e.runId ?? null),
      events.map((e) => e.agentId ?? null),
      events.map((e) => spaceOf(e) ?? null),
      events.map((e) => jsonOfEvent(e)),
      this.db.channel,
      this.db.instanceId,
    );
    // The sequence hands ids out in row order.
    return rows.map((r) => r.id as number);
  }

  async after(afterId: number, f: EventFilter, limit: number): Promise<StoredEvent[]> {
    const q = eventsAfterQuery(afterId, f, limit);
    const rows = await this.db.all(q.sql, ...q.args);
    return rows.map((r) => ({ id: r.id, event: JSON.parse(r.data) as GatewayEvent }));
  }

  async lastId(): Promise<number> {
    return (await this.db.get(SQL.lastEvent))!.id;
  }

  async prune(olderThan: number): Promise<number> {
    // Ids grow with time: everything up to the newest event older than the cutoff goes.
    const last = await this.db.get('SELECT id FROM events WHERE ts < ? ORDER BY id DESC LIMIT 1', olderThan);
    return last ? this.db.run(SQL.pruneEvents, last.id) : 0;
  }

  async appendExecutions(entries: readonly ExecutionLogEntry[]): Promise<void> {
    if (!entries.length) return;
    await this.db.run(
      `INSERT INTO executions (call_id, tool, status, agent_id, run_id, timestamp, entry)
        SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[])`,
      entries.map((e) => e.callId),
      entries.map((e) => e.tool),
      entries.map((e) => e.status),
      entries.map((e) => e.agentId ?? null),
      entries.map((e) => e.runId ?? null),
      entries.map((e) => e.timestamp),
      entries.map((e) => jsonOfEntry(e)),
    );
  }

  async listExecutions(f: ExecutionFilter): Promise<ExecutionList> {
    const q = executionsQuery(f);
    return executionPage(await this.db.all(q.sql, ...q.args), f.limit);
  }
}
