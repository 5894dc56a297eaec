import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { LATEST_VERSION } from './migrations.js';
import { openSqliteStore, StoreVersionError } from './sqlite.js';
import { storeContract } from './store.contract.js';

const dir = mkdtempSync(join(tmpdir(), 'tb-store-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

storeContract('SqliteStore', async () => openSqliteStore(join(dir, `contract-${n++}.db`)));

describe('SqliteStore files', () => {
  it('migrates a new file to the latest version and reopens it without re-running migrations', async () => {
    const file = join(dir, 'm.db');
    const a = openSqliteStore(file);
    await a.createCall({ callId: 'c1', runId: 'r', agentId: 'a', sessionId: 's', tool: 't', input: {}, visible: false, createdAt: 1 });
    await a.close();
    const b = openSqliteStore(file);
    expect((await b.getCall('c1'))?.tool).toBe('t');
    const versions = b.db.prepare('SELECT version FROM schema_migrations').all();
    expect(versions).toEqual([{ version: LATEST_VERSION }]);
    expect(b.db.pragma('journal_mode', { simple: true })).toBe('wal');
    await b.close();
  });

  it('refuses a database written by a newer toolbelt', () => {
    const file = join(dir, 'newer.db');
    openSqliteStore(file).db.close();
    const raw = new Database(file);
    raw.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(LATEST_VERSION + 1, 'future', 0);
    raw.close();
    expect(() => openSqliteStore(file)).toThrow(StoreVersionError);
    expect(() => openSqliteStore(file)).toThrow(/newer than this toolbelt knows/);
  });

  it('opens read-only for readers and refuses files that are not gateway databases', async () => {
    const file = join(dir, 'ro.db');
    const w = openSqliteStore(file);
    await w.appendExecutions([{ callId: 'c', tool: 't', params: {}, status: 'success', durationMs: 1, timestamp: 'x', sessionId: 's' }]);
    const r = openSqliteStore(file, { readonly: true });
    expect((await r.listExecutions({ limit: 5 })).map((e) => e.callId)).toEqual(['c']);
    await r.close();
    await w.close();
    const other = join(dir, 'other.db');
    new Database(other).exec('CREATE TABLE x (a)');
    expect(() => openSqliteStore(other, { readonly: true })).toThrow(/not a toolbelt gateway database/);
    expect(() => openSqliteStore(join(dir, 'missing.db'), { readonly: true })).toThrow(/no gateway database/);
  });
});
