// PostgreSQL faults fail on time and say so: a black-holed database fails a waiting call at the
// call's own deadline (not the driver's), /healthz answers within a second, every database error is
// a 503 with Retry-After (never a 200 tool error, even under pg_terminate_backend), and the waiting
// call ends pending with its late result in the inbox. Through a TCP proxy of the test's own.
import { Policy, ToolRegistry } from '@toolbelt/core';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { echoTool } from '../__fixtures__/harness.js';
import { dropSchemas, freshSchema, PG_URL, pgAvailable } from '../__fixtures__/pg.js';
import { startSwitchProxy, type SwitchProxy } from '../__fixtures__/switch-proxy.js';
import { createGateway, type Gateway } from '../gateway.js';
import { openPgStore, type PgStore } from '../store/pg/index.js';

afterAll(dropSchemas, 60_000);
const DRIVER_TIMEOUT_MS = 20_000;
let parts: { gw: Gateway; store: PgStore; proxy: SwitchProxy; base: string } | undefined;
afterEach(async () => {
  parts?.proxy.on();
  await parts?.gw.close();
  await parts?.store.close();
  await parts?.proxy.close();
  parts = undefined;
});

async function start(): Promise<NonNullable<typeof parts>> {
  const target = new URL(PG_URL);
  const proxy = await startSwitchProxy(Number(target.port || 5432), target.hostname);
  target.port = String(proxy.port);
  const schema = freshSchema('faults');
  const store = await openPgStore(target.toString(), { schema, queryTimeoutMs: DRIVER_TIMEOUT_MS });
  const tool = {
    name: 'lookup',
    description: 'External.',
    inputSchema: { type: 'object' },
    executionType: 'external' as const,
    visible: false,
    timeout: 1500,
  };
  const registry = new ToolRegistry().registerAll([echoTool]);
  const gw = await createGateway({
    registry,
    policy: new Policy({ mode: 'yolo' }),
    store,
    config: { tools: [tool] },
    env: {},
  });
  const { url } = await gw.listen({ port: 0 });
  parts = { gw, store, proxy, base: url };
  return parts;
}

const post = (base: string, path: string, body: unknown) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const timed = async <T>(fn: () => Promise<T>) => {
  const t0 = Date.now();
  const value = await fn();
  return { value, ms: Date.now() - t0 };
};
async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const v = await fn().catch(() => undefined as T);
    if ((v !== undefined && ok(v)) || i >= 300) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!pgAvailable)('the gateway on PostgreSQL under faults', () => {
  it('fails a waiting call at its own deadline when the database is black-holed, answers /healthz within a second, and leaves the call pending', async () => {
    const { base, proxy, store } = await start();
    const answer = timed(() =>
      post(base, '/api/runs/r1/tool-calls', { agentId: 'a', name: 'lookup', callId: 'bh1', input: {} }),
    );
    await until(
      () => store.getCall('bh1'),
      (c) => c?.status === 'waiting',
    );
    proxy.blackhole();
    const { value: res, ms } = await answer;
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    // The control: the driver alone would have waited DRIVER_TIMEOUT_MS.
    expect(ms).toBeLessThan(DRIVER_TIMEOUT_MS / 2);
    const health = await timed(() => fetch(`${base}/healthz`));
    expect(health.value.status).toBe(503);
    expect(health.ms).toBeLessThan(DRIVER_TIMEOUT_MS / 2);
    proxy.on();
    expect(
      (
        await until(
          () => store.getCall('bh1'),
          (c) => c?.status === 'pending',
        )
      )?.status,
    ).toBe('pending');
    expect(
      await (await post(base, '/api/runs/r1/tool-results', { callId: 'bh1', result: 'late' })).json(),
    ).toMatchObject({ delivered: 'inbox' });
    expect(await store.listInbox('a', { limit: 10 })).toMatchObject([{ callId: 'bh1', result: 'late' }]);
  }, 60_000);

  it('answers 503 with Retry-After, never a 200 tool error, while its backends are terminated', async () => {
    const { base, store } = await start();
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    const statuses: Record<string, number> = {};
    try {
      for (let round = 0; round < 6; round++) {
        const calls = Array.from({ length: 20 }, (_, i) =>
          post(base, '/api/runs/r1/tool-calls', {
            agentId: 'a',
            name: i % 2 ? 'echo' : 'lookup',
            callId: `t${round}-${i}`,
            input: i % 2 ? { text: 'x' } : {},
          }),
        );
        await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'toolbelt gateway' AND pid <> pg_backend_pid()`,
        );
        for (const res of await Promise.all(calls)) {
          const body = (await res.json()) as { status?: string; error?: { code: string } };
          const key = `${res.status} ${body.error?.code ?? body.status}`;
          statuses[key] = (statuses[key] ?? 0) + 1;
          if (res.status === 503) expect(res.headers.get('retry-after')).toBe('1');
        }
      }
    } finally {
      await admin.end();
    }
    console.log(`answers while backends were terminated: ${JSON.stringify(statuses)}`);
    // Every answer is a result, a timeout of the external call, or 503: never a database failure as a tool error.
    expect(Object.keys(statuses).filter((k) => !/^(200 success|200 TIMEOUT|503 UNAVAILABLE)$/.test(k))).toEqual([]);
    // Every call that waited ends pending or resolved: none is left waiting.
    const left = await until(
      () => store.listCalls({ statuses: ['waiting', 'running'], limit: 500 }),
      (c) => c.length === 0,
    );
    expect(left.map((c) => c.callId)).toEqual([]);
  }, 90_000);
});
