import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SQLITE_LATEST_VERSION as LATEST_VERSION } from '../shared/migrations.js';
import { openSqliteStore } from './store.js';
import { StoreVersionError } from '../shared/dialect.js';
import { storeContract } from '../shared/store.contract.js';
import { leaveContract } from '../shared/leave.contract.js';
import { listingContract } from '../shared/listing.contract.js';
import { spacesContract } from '../shared/spaces.contract.js';

const dir = mkdtempSync(join(tmpdir(), 'tb-store-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

storeContract('SqliteStore', async () => openSqliteStore(join(dir, `contract-${n++}.db`)));
leaveContract('SqliteStore', async () => openSqliteStore(join(dir, `contract-${n++}.db`)));
listingContract('SqliteStore', async () => openSqliteStore(join(dir, `contract-${n++}.db`)));
spacesContract('SqliteStore', async () => openSqliteStore(join(dir, `contract-${n++}.db`)));

describe('SqliteStore files', () => {
  it('migrates a new file to the latest version and reopens it without re-running migrations', async () => {
    const file = join(dir, 'm.db');
    const a = openSqliteStore(file);
    await a.createCall({
      callId: 'c1',
      runId: 'r',
      agentId: 'a',
      sessionId: 's',
      tool: 't',
      input: {},
      visible: false,
      createdAt: 1,
    });
    await a.close();
    const b = openSqliteStore(file);
    expect((await b.getCall('c1'))?.tool).toBe('t');
    const versions = b.db.prepare('SELECT version FROM schema_migrations').all();
    expect(versions.at(-1)).toEqual({ version: LATEST_VERSION });
    expect(b.db.pragma('journal_mode', { simple: true })).toBe('wal');
    await b.close();
  });

  it('acknowledges a write only once another connection can read it (group commit)', async () => {
    const file = join(dir, 'durable.db');
    const store = openSqliteStore(file);
    const written = store.createCall({
      callId: 'c1',
      runId: 'r',
      agentId: 'a',
      sessionId: 's',
      tool: 't',
      input: {},
      visible: false,
      createdAt: 1,
    });
    const other = new Database(file, { readonly: true });
    const count = () => (other.prepare('SELECT COUNT(*) AS n FROM tool_calls').get() as { n: number }).n;
    expect(count()).toBe(0);
    expect(await written).toBe(true);
    expect(count()).toBe(1);
    const both = await Promise.all([
      store.createCall({
        callId: 'c2',
        runId: 'r',
        agentId: 'a',
        sessionId: 's',
        tool: 't',
        input: {},
        visible: false,
        createdAt: 2,
      }),
      store.createCall({
        callId: 'c2',
        runId: 'r',
        agentId: 'a',
        sessionId: 's',
        tool: 't',
        input: {},
        visible: false,
        createdAt: 3,
      }),
    ]);
    expect(both).toEqual([true, false]);
    expect(count()).toBe(2);
    other.close();
    await store.close();
  });

  it('checkpoints the WAL into the database file on a worker thread', async () => {
    const file = join(dir, 'checkpoint.db');
    const store = openSqliteStore(file);
    const before = statSync(file).size;
    await store.appendEvents(
      Array.from(
        { length: 2000 },
        (_, i) => ({ type: 'agent.state', state: 'idle', ts: i, sessionId: 's'.repeat(200) }) as const,
      ),
    );
    const grown = () => statSync(file).size > before + 100_000;
    for (let i = 0; i < 100 && !grown(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(grown()).toBe(true);
    await store.close();
  });

  it('refuses a database written by a newer toolbelt', () => {
    const file = join(dir, 'newer.db');
    openSqliteStore(file).db.close();
    const raw = new Database(file);
    raw
      .prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
      .run(LATEST_VERSION + 1, 'future', 0);
    raw.close();
    expect(() => openSqliteStore(file)).toThrow(StoreVersionError);
    expect(() => openSqliteStore(file)).toThrow(/newer than this toolbelt knows/);
  });

  it('opens read-only for readers and refuses files that are not gateway databases', async () => {
    const file = join(dir, 'ro.db');
    const w = openSqliteStore(file);
    await w.appendExecutions([
      { callId: 'c', tool: 't', params: {}, status: 'success', durationMs: 1, timestamp: 'x', sessionId: 's' },
    ]);
    const r = openSqliteStore(file, { readonly: true });
    expect((await r.listExecutions({ limit: 5 })).entries.map((e) => e.callId)).toEqual(['c']);
    await r.close();
    await w.close();
    const other = join(dir, 'other.db');
    new Database(other).exec('CREATE TABLE x (a)');
    expect(() => openSqliteStore(other, { readonly: true })).toThrow(/not a toolbelt gateway database/);
    expect(() => openSqliteStore(join(dir, 'missing.db'), { readonly: true })).toThrow(/no gateway database/);
  });
});
