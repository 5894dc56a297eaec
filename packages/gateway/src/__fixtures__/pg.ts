// PostgreSQL for tests: the server on 127.0.0.1:5432 (TOOLBELT_TEST_PG overrides the URL), a fresh
// schema per use so concurrent test files never collide, dropped afterwards. Without a server the
// tests skip, saying why; with TOOLBELT_REQUIRE_PG=1 (CI) they fail instead.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const PG_URL = process.env.TOOLBELT_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';

async function probe(): Promise<string | undefined> {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.query('SELECT 1');
    return undefined;
  } catch (err) {
    return (err as Error).message || String(err);
  } finally {
    await c.end().catch(() => {});
  }
}

const why = await probe();
if (why && process.env.TOOLBELT_REQUIRE_PG === '1')
  throw new Error(`TOOLBELT_REQUIRE_PG=1 but PostgreSQL at ${PG_URL} cannot be used: ${why}`);
if (why)
  console.warn(
    `PostgreSQL tests skipped: ${PG_URL} cannot be used (${why}); start PostgreSQL there or set TOOLBELT_TEST_PG`,
  );

export const pgAvailable = why === undefined;

/** A new schema name; drop it with dropSchemas(). */
export function freshSchema(prefix = 't'): string {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  made.push(name);
  return name;
}
const made: string[] = [];

export async function dropSchemas(): Promise<void> {
  if (!made.length) return;
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    for (const s of made.splice(0)) await c.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
  } finally {
    await c.end();
  }
}
