import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { dropSchemas, freshSchema, PG_URL, pgAvailable } from '../../__fixtures__/pg.js';
import { PG_LATEST_VERSION } from './open.js';
import { openPgStore } from './store.js';
import { spacesContract } from '../shared/spaces.contract.js';
import { storeContract } from '../shared/store.contract.js';
import { leaveContract } from '../shared/leave.contract.js';
import { listingContract } from '../shared/listing.contract.js';
import type { StoreNotice } from '../shared/types.js';

afterAll(dropSchemas, 60_000);

const T0 = 1_700_000_000_000;
const call = (callId: string) => ({
  callId,
  runId: 'r',
  agentId: 'a',
  sessionId: 's',
  tool: 't',
  input: {},
  visible: false,
  createdAt: T0,
});

describe.skipIf(!pgAvailable)('PostgreSQL store', () => {
  storeContract('PgStore', () => openPgStore(PG_URL, { schema: freshSchema() }));
  leaveContract('PgStore', () => openPgStore(PG_URL, { schema: freshSchema() }));
  listingContract('PgStore', () => openPgStore(PG_URL, { schema: freshSchema() }));
  spacesContract('PgStore', () => openPgStore(PG_URL, { schema: freshSchema() }));

  it('migrates once when several instances start at the same moment', async () => {
    const schema = freshSchema();
    const stores = await Promise.all(Array.from({ length: 4 }, () => openPgStore(PG_URL, { schema })));
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    const { rows } = await c.query(`SELECT version FROM ${schema}.schema_migrations ORDER BY version`);
    await c.end();
    expect(rows.map((r) => r.version)).toEqual(Array.from({ length: PG_LATEST_VERSION }, (_, i) => i + 1));
    await Promise.all(stores.map((s) => s.close()));
  });

  it('wakes a waiter on one instance when another resolves the call', async () => {
    const schema = freshSchema();
    const [a, b] = await Promise.all([openPgStore(PG_URL, { schema }), openPgStore(PG_URL, { schema })]);
    const heard = new Promise<StoreNotice>((resolve) => a.subscribe(resolve));
    await a.createCall(call('w1'));
    await a.openCall('w1', 'waiting', T0 + 60_000, T0);
    expect(await b.resolveCall('w1', 'r', { result: 1 }, T0 + 1)).toMatchObject({ ok: true, previous: 'waiting' });
    expect(await heard).toEqual({ kind: 'call.resolved', callId: 'w1' });
    await Promise.all([a.close(), b.close()]);
  });

  it('tells other instances about new events, in one order of ids', async () => {
    const schema = freshSchema();
    const [a, b] = await Promise.all([openPgStore(PG_URL, { schema }), openPgStore(PG_URL, { schema })]);
    const told = new Promise<void>((resolve) => a.watchEvents(() => resolve()));
    const ev = (i: number) => ({ type: 'agent.state' as const, state: 'idle' as const, ts: T0 + i, sessionId: 's' });
    const batches = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).appendEvents([ev(i), ev(i)])),
    );
    await told;
    const ids = batches.flat().sort((x, y) => x - y);
    expect((await a.eventsAfter(0, {}, 100)).map((e) => e.id)).toEqual(ids);
    await Promise.all([a.close(), b.close()]);
  });

  it('hands each inbox message to one think cycle across instances', async () => {
    const schema = freshSchema();
    const [a, b] = await Promise.all([openPgStore(PG_URL, { schema }), openPgStore(PG_URL, { schema })]);
    for (let i = 0; i < 30; i++) {
      await a.createCall(call(`p${i}`));
      await a.openCall(`p${i}`, 'pending', T0 + 60_000, T0);
      await b.resolveCall(`p${i}`, 'r', { result: i }, T0 + 1);
    }
    const taken = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).spaces.takeCycle('a', `cy${i}`, 4, T0 + 2)),
    );
    const ids = taken.flat().map((m) => m.id);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    await Promise.all([a.close(), b.close()]);
  });

  it("ends only the calls of instances that are gone, never a live instance's", async () => {
    const schema = freshSchema();
    const a = await openPgStore(PG_URL, { schema });
    await a.createCall(call('r1'));
    const b = await openPgStore(PG_URL, { schema });
    expect(await b.recover(T0)).toEqual({ reopened: 0, interrupted: 0 });
    expect((await b.getCall('r1'))?.status).toBe('running');
    await a.close();
    expect(await b.reclaimOrphans(T0)).toEqual({ reopened: 0, interrupted: 1 });
    expect(await b.getCall('r1')).toMatchObject({ status: 'error', result: { error: { code: 'ABORTED' } } });
    await b.close();
  });

  it('sends a result to the inbox when the instance waiting for it is gone', async () => {
    const schema = freshSchema();
    const a = await openPgStore(PG_URL, { schema });
    const b = await openPgStore(PG_URL, { schema });
    await a.createCall(call('w1'));
    await a.openCall('w1', 'waiting', T0 + 60_000, T0);
    await a.createCall(call('w2'));
    await a.openCall('w2', 'waiting', T0 + 60_000, T0);
    expect(await b.resolveCall('w1', 'r', { result: 1 }, T0 + 1)).toMatchObject({ ok: true, previous: 'waiting' });
    await a.close();
    expect(await b.resolveCall('w2', 'r', { result: 2 }, T0 + 2)).toMatchObject({
      ok: true,
      previous: 'pending',
      inbox: { callId: 'w2', result: 2 },
    });
    expect((await b.listInbox('a', { limit: 10 })).map((m) => m.kind === 'tool_result' && m.callId)).toEqual(['w2']);
    await b.close();
  });

  it('refuses a schema name it cannot use safely, and an unreachable server with a clear error', async () => {
    await expect(openPgStore(PG_URL, { schema: 'x; DROP TABLE y' })).rejects.toThrow(/use lower-case letters/);
    await expect(openPgStore('postgres://postgres@127.0.0.1:1/test', { queryTimeoutMs: 2000 })).rejects.toThrow(
      /ECONNREFUSED|connect/,
    );
  });
});
