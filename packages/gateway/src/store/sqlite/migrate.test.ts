// The one migration list against the schema the released SQLite migrations made, frozen as a
// fingerprint per version: the list builds that schema at every version, and every older database
// upgrades to the latest, its rows kept.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { changedStep, fingerprint, normalSql, releasedFingerprints } from '../shared/__fixtures__/released-schema.js';
import { SQLITE_MIGRATIONS } from '../shared/migrations.js';
import { openSqliteStore } from './store.js';

const dir = mkdtempSync(join(tmpdir(), 'tb-migrate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const RELEASED = releasedFingerprints('sqlite');
const VERSIONS = SQLITE_MIGRATIONS.map((m) => m.version);
const LATEST = VERSIONS[VERSIONS.length - 1];

/** A database at `version`, made as a toolbelt of that version made it: the list's steps up to it. */
function atVersion(file: string, version: number): void {
  const db = new Database(file);
  db.exec(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
  );
  for (const m of SQLITE_MIGRATIONS.filter((r) => r.version <= version)) {
    db.exec(m.sql);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, 0);
  }
  db.close();
}

/** Every table and index as SQLite keeps it, in one order. */
function schemaOf(file: string): string[] {
  const db = new Database(file, { readonly: true });
  const rows = db.prepare(`SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name`).all() as {
    type: string;
    name: string;
    tbl_name: string;
    sql: string | null;
  }[];
  db.close();
  return rows.map((r) => `${r.type} ${r.name} on ${r.tbl_name}: ${normalSql(r.sql)}`);
}

function versionsOf(file: string): number[] {
  const db = new Database(file, { readonly: true });
  const rows = db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[];
  db.close();
  return rows.map((r) => r.version);
}

describe('SQLite migrations', () => {
  it('keeps the released version numbers', () => {
    expect(VERSIONS).toEqual([...RELEASED.keys()]);
  });

  it.each(VERSIONS)('builds the released schema of version %i', (version) => {
    const file = join(dir, `built-${version}.db`);
    atVersion(file, version);
    expect(fingerprint(schemaOf(file)), changedStep(version)).toBe(RELEASED.get(version));
  });

  it('opens a new database at the released schema', async () => {
    const [built, now] = [join(dir, 'built.db'), join(dir, 'fresh.db')];
    atVersion(built, LATEST);
    await openSqliteStore(now, { backgroundCheckpoints: false }).close();
    expect(schemaOf(now)).toEqual(schemaOf(built));
    expect(fingerprint(schemaOf(now))).toBe(RELEASED.get(LATEST));
    expect(schemaOf(now).length).toBeGreaterThan(15);
  });

  it.each(VERSIONS.map((v) => v - 1))('upgrades a database at version %i', async (version) => {
    const [old, fresh] = [join(dir, `at-${version}.db`), join(dir, `fresh-${version}.db`)];
    atVersion(old, version);
    atVersion(fresh, LATEST);
    await openSqliteStore(old, { backgroundCheckpoints: false }).close();
    expect(schemaOf(old)).toEqual(schemaOf(fresh));
    expect(fingerprint(schemaOf(old))).toBe(RELEASED.get(LATEST));
    expect(versionsOf(old)).toEqual(VERSIONS);
  });

  it('keeps an inbox message of a version 1 database', async () => {
    const file = join(dir, 'inbox.db');
    atVersion(file, 1);
    const db = new Database(file);
    db.prepare(
      `INSERT INTO inbox (agent_id, run_id, call_id, tool, payload, created_at) VALUES ('a', 'r', 'c1', 't', '{"result":1}', 5)`,
    ).run();
    db.close();
    const store = openSqliteStore(file, { backgroundCheckpoints: false });
    expect(await store.inboxOfCall('c1')).toMatchObject({ agentId: 'a', callId: 'c1', kind: 'tool_result' });
    await store.close();
  });
});
