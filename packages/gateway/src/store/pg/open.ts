// Opening the PostgreSQL store: a pool whose BIGINTs read as numbers, every connection in the
// store's schema, and the schema brought up to date under an advisory lock, so instances that
// start together migrate once, one after the other.
import pg from 'pg';
import { PG_LATEST_VERSION, PG_MIGRATIONS, StoreVersionError } from '../shared/migrations.js';
import type { PgStoreOptions } from './options.js';

export type { PgStoreOptions } from './options.js';

export { PG_LATEST_VERSION } from '../shared/migrations.js';

const INT8 = 20;
/** BIGINT ids and epoch milliseconds as numbers (they stay far below 2^53). */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** A schema name safe to put in SQL as an identifier. */
export function checkSchema(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema))
    throw new Error(`schema "${schema}": use lower-case letters, digits and _ (at most 63), starting with a letter`);
  return schema;
}

/**
 * The connection settings of every connection the store makes, the listener's included. `logs`:
 * connections whose commits return before the WAL is flushed (see PgStore).
 */
export function clientConfig(url: string, opts: PgStoreOptions, logs = false): pg.ClientConfig {
  const schema = checkSchema(opts.schema ?? 'public');
  return {
    connectionString: url,
    types,
    options: `-c search_path=${schema}${logs ? ' -c synchronous_commit=off' : ''}`,
    keepAlive: true,
    connectionTimeoutMillis: opts.queryTimeoutMs ?? 15_000,
    query_timeout: opts.queryTimeoutMs ?? 15_000,
    application_name: 'toolbelt gateway',
  };
}

export function createPool(url: string, opts: PgStoreOptions, logs = false): pg.Pool {
  const pool = new pg.Pool({ ...clientConfig(url, opts, logs), max: opts.maxConnections ?? (logs ? 20 : 10) });
  // An idle connection that dies (the server restarted) is dropped by the pool; the next query opens
  // a new one. Without a listener, the error would end the process.
  pool.on('error', () => {});
  return pool;
}

/** Creates the schema when missing and applies the migrations it lacks, one instance at a time. */
export async function migrate(pool: pg.Pool, schema: string): Promise<void> {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    // Held until COMMIT: a second instance starting now waits here, then finds nothing left to do.
    await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`toolbelt.migrate:${schema}`]);
    await c.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await c.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)',
    );
    const current = (await c.query<{ v: number }>('SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations'))
      .rows[0].v;
    if (current > PG_LATEST_VERSION)
      throw new StoreVersionError(
        `schema ${schema} has version ${current}, newer than this toolbelt knows (${PG_LATEST_VERSION}); upgrade toolbelt`,
      );
    for (const m of PG_MIGRATIONS) {
      if (m.version <= current) continue;
      await c.query(m.sql);
      await c.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        m.version,
        m.name,
        Date.now(),
      ]);
    }
    await c.query('COMMIT');
  } catch (err) {
    await c.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    c.release();
  }
}

const statements = new Map<string, { name: string; text: string }>();

/**
 * A query in `?` placeholders (as the SQLite store writes them) as a named statement with $1, $2, ...:
 * each connection parses and plans it once, not on every call.
 */
export function statement(sql: string): { name: string; text: string } {
  let s = statements.get(sql);
  if (!s) {
    let n = 0;
    s = { name: `tb${statements.size}`, text: sql.replace(/\?/g, () => `$${++n}`) };
    statements.set(sql, s);
  }
  return s;
}
