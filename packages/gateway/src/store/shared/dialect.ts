// One schema history, two databases. A migration is written once (migrations.ts) as SQL with
// placeholders each dialect fills in, and is numbered per dialect: PostgreSQL's history has one
// version SQLite's lacks, and both keep the numbers their databases already record in
// schema_migrations.

export type Dialect = 'sqlite' | 'pg';

/**
 * What a dialect writes for each placeholder: `{id}` a growing integer key, `{int}` an integer that
 * may pass 2^31 (ids pointing at such keys), `{ts}` epoch milliseconds. JSON is text in both.
 */
export const COLUMN_TYPES: Record<Dialect, Record<'id' | 'int' | 'ts', string>> = {
  sqlite: { id: 'INTEGER PRIMARY KEY AUTOINCREMENT', int: 'INTEGER', ts: 'INTEGER' },
  pg: { id: 'BIGSERIAL PRIMARY KEY', int: 'BIGINT', ts: 'BIGINT' },
};

/** A step of the schema's history, as written: `sql` may hold placeholders and dialect-only parts. */
export interface MigrationSource {
  /** The version each dialect records for this step; a dialect without one skips the step. */
  version: Partial<Record<Dialect, number>>;
  name: string;
  /**
   * SQL with `{id}`, `{int}` and `{ts}` (see COLUMN_TYPES), and `{pg: ...}` / `{sqlite: ...}`: text
   * only that dialect runs (it holds no braces of its own).
   */
  sql: string;
}

/** A step as one dialect runs it. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export class StoreVersionError extends Error {
  override name = 'StoreVersionError';
}

/** `sql` as `dialect` runs it: placeholders filled in, the other dialect's parts left out. */
export function render(sql: string, dialect: Dialect): string {
  const types = COLUMN_TYPES[dialect];
  return sql
    .replace(/\{(id|int|ts)\}/g, (_, type: keyof typeof types) => types[type])
    .replace(/\{(sqlite|pg):([^{}]*)\}/g, (_, only: Dialect, text: string) => (only === dialect ? text : ''));
}

/** The steps `dialect` runs, in order, each with its own version number. */
export function migrationsOf(sources: readonly MigrationSource[], dialect: Dialect): Migration[] {
  const out: Migration[] = [];
  for (const s of sources) {
    const version = s.version[dialect];
    if (version === undefined) continue;
    if (out.length > 0 && version !== out[out.length - 1].version + 1)
      throw new Error(`${dialect} migration "${s.name}": version ${version} does not follow the one before`);
    out.push({ version, name: s.name, sql: render(s.sql, dialect) });
  }
  return out;
}
