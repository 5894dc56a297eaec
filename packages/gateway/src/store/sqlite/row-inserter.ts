// Multi-row INSERTs for the SQLite store: one statement per chunk of rows instead of one per row.
import type Database from 'better-sqlite3';
import { placeholders } from '../shared/rows.js';

/** Rows per multi-row INSERT. */
const CHUNK = 32;

export class RowInserter {
  /** Prepared statements, by table and row count. */
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  /**
   * Inserts `items` with as few statements as it takes (CHUNK rows each); `done` is told the range of
   * items each statement wrote and the id of its last row.
   */
  insert<T>(
    table: string,
    columns: readonly string[],
    items: readonly T[],
    bind: (item: T, args: unknown[]) => void,
    done?: (from: number, to: number, lastId: number) => void,
  ): void {
    for (let from = 0; from < items.length; from += CHUNK) {
      const to = Math.min(items.length, from + CHUNK);
      const args: unknown[] = [];
      for (let i = from; i < to; i++) bind(items[i], args);
      const info = this.statement(table, columns, to - from).run(args);
      if (info.changes !== to - from) throw new Error(`${table}: inserted ${info.changes} rows of ${to - from}`);
      done?.(from, to, Number(info.lastInsertRowid));
    }
  }

  private statement(table: string, columns: readonly string[], rows: number): Database.Statement {
    const key = `${table}:${rows}`;
    let stmt = this.statements.get(key);
    if (!stmt) {
      const row = `(${placeholders(columns.length)})`;
      stmt = this.db.prepare(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array.from({ length: rows }, () => row).join(', ')}`,
      );
      this.statements.set(key, stmt);
    }
    return stmt;
  }
}
