// The store's fixed statements, prepared once when the database opens. Listing queries, whose
// WHERE clause depends on the filter, are prepared where they are built.
import type Database from 'better-sqlite3';
import { SQL } from '../shared/statements.js';

export type Statements = Record<keyof typeof SQL, Database.Statement>;

export function prepareStatements(db: Database.Database): Statements {
  return Object.fromEntries(Object.entries(SQL).map(([name, sql]) => [name, db.prepare(sql)])) as Statements;
}

/** The id of the newest event older than `olderThan` (0 when none): ids grow with time, so bisection on the key finds it. */
export function lastEventOlderThan(q: Statements, olderThan: number): number {
  let { lo, hi } = q.eventBounds.get() as { lo: number; hi: number };
  let last = 0;
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const row = q.eventTsAt.get(mid) as { id: number; ts: number } | undefined;
    if (row && row.ts < olderThan) {
      last = row.id;
      lo = row.id + 1;
    } else hi = mid - 1;
  }
  return last;
}
