// The one migration list against the schema the released PostgreSQL migrations made, frozen as a
// fingerprint per version: the list builds that schema at every version, and every older schema
// upgrades to the latest.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { dropSchemas, freshSchema, PG_URL, pgAvailable } from '../../__fixtures__/pg.js';
import { changedStep, fingerprint, normalSql, releasedFingerprints } from '../shared/__fixtures__/released-schema.js';
import { PG_MIGRATIONS } from '../shared/migrations.js';
import { openPgStore } from './store.js';

afterAll(dropSchemas, 60_000);
const RELEASED = releasedFingerprints('pg');
const VERSIONS = PG_MIGRATIONS.map((m) => m.version);
const LATEST = VERSIONS[VERSIONS.length - 1];

async function withClient<T>(schema: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** A schema at `version`, made as a toolbelt of that version made it: the list's steps up to it. */
async function atVersion(version: number): Promise<string> {
  const schema = freshSchema('rel');
  await withClient(schema, async (c) => {
    await c.query(`CREATE SCHEMA ${schema}`);
    await c.query(
      'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)',
    );
    for (const m of PG_MIGRATIONS.filter((r) => r.version <= version)) {
      await c.query(m.sql);
      await c.query('INSERT INTO schema_migrations VALUES ($1, $2, 0)', [m.version, m.name]);
    }
  });
  return schema;
}

const CATALOG = [
  `SELECT table_name, column_name, ordinal_position, data_type, is_nullable, column_default
     FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, ordinal_position`,
  `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 ORDER BY indexname`,
  `SELECT conrelid::regclass::text AS rel, conname, pg_get_constraintdef(oid) AS def
     FROM pg_constraint WHERE connamespace = $1::regnamespace ORDER BY rel, conname`,
  `SELECT proname, pg_get_function_identity_arguments(oid) AS args, prosrc
     FROM pg_proc WHERE pronamespace = $1::regnamespace ORDER BY proname`,
];

/** Columns, indexes, constraints and functions of `schema`, its name taken out. */
async function schemaOf(schema: string): Promise<string[]> {
  return withClient('public', async (c) => {
    const out: string[] = [];
    for (const q of CATALOG)
      for (const row of (await c.query(q, [schema])).rows)
        out.push(normalSql(Object.values(row).join(' | ')).replaceAll(`${schema}.`, ''));
    return out;
  });
}

async function versionsOf(schema: string): Promise<number[]> {
  const { rows } = await withClient(schema, (c) => c.query('SELECT version FROM schema_migrations ORDER BY version'));
  return rows.map((r: { version: number }) => r.version);
}

describe.skipIf(!pgAvailable)('PostgreSQL migrations', () => {
  it('keeps the released version numbers', () => {
    expect(VERSIONS).toEqual([...RELEASED.keys()]);
  });

  it.each(VERSIONS)('builds the released schema of version %i', async (version) => {
    const schema = await schemaOf(await atVersion(version));
    expect(fingerprint(schema), changedStep(version)).toBe(RELEASED.get(version));
  });

  it('opens a new schema at the released schema', async () => {
    const now = freshSchema('new');
    await (await openPgStore(PG_URL, { schema: now })).close();
    const schema = await schemaOf(now);
    expect(schema).toEqual(await schemaOf(await atVersion(LATEST)));
    expect(fingerprint(schema)).toBe(RELEASED.get(LATEST));
    expect(schema.length).toBeGreaterThan(80);
  });

  it.each(VERSIONS.map((v) => v - 1))('upgrades a schema at version %i', async (version) => {
    const [old, fresh] = [await atVersion(version), await atVersion(LATEST)];
    await (await openPgStore(PG_URL, { schema: old })).close();
    const schema = await schemaOf(old);
    expect(schema).toEqual(await schemaOf(fresh));
    expect(fingerprint(schema)).toBe(RELEASED.get(LATEST));
    expect(await versionsOf(old)).toEqual(VERSIONS);
  });
});
