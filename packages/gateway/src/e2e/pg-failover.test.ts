// The gateway on PostgreSQL when the database goes away: /healthz says so, a call waiting for its
// result fails with a clear error instead of hanging, new requests get 503, and once the database
// is back the gateway recovers by itself.
import { Policy, ToolRegistry } from '@toolbelt/core';
import { afterAll, describe, expect, it } from 'vitest';
import { dropSchemas, freshSchema, PG_URL, pgAvailable } from '../__fixtures__/pg.js';
import { echoTool } from '../__fixtures__/harness.js';
import { startSwitchProxy } from '../__fixtures__/switch-proxy.js';
import { createGateway } from '../gateway.js';
import { openPgStore } from '../store/pg/index.js';

afterAll(dropSchemas, 60_000);

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const v = await fn();
    if (ok(v) || i >= 400) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!pgAvailable)('gateway on PostgreSQL, database lost and back', () => {
  it('reports itself unhealthy, fails calls in flight clearly, and recovers by itself', async () => {
    const proxy = await startSwitchProxy(Number(new URL(PG_URL).port || 5432), new URL(PG_URL).hostname);
    const url = new URL(PG_URL);
    url.port = String(proxy.port);
    const store = await openPgStore(url.toString(), { schema: freshSchema('fail'), queryTimeoutMs: 3000 });
    const registry = new ToolRegistry().registerAll([echoTool]);
    const config = {
      tools: [
        {
          name: 'waitFor',
          description: 'Waits for a result.',
          inputSchema: { type: 'object' },
          executionType: 'external' as const,
          visible: false,
          timeout: 60_000,
        },
      ],
    };
    const gw = await createGateway({ registry, policy: new Policy({ mode: 'yolo' }), store, config, env: {} });
    const { url: base } = await gw.listen({ port: 0 });
    const call = (name: string, input = {}) =>
      fetch(`${base}/api/runs/r1/tool-calls`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ agentId: 'a', name, input }),
      });
    const health = async () => {
      const res = await fetch(`${base}/healthz`);
      return { status: res.status, body: (await res.json()) as { ok: boolean; error?: string } };
    };

    expect(await health()).toEqual({ status: 200, body: { ok: true } });
    const waiting = call('waitFor');
    const open = await until(
      () => store.listCalls({ statuses: ['waiting'], limit: 1 }),
      (calls) => calls.length === 1,
    );
    expect(open).toHaveLength(1);

    proxy.off();
    const down = await until(health, (h) => h.status === 503);
    expect(down.body).toMatchObject({ ok: false, error: expect.stringMatching(/database/) });
    const inFlight = await waiting;
    expect(inFlight.status).toBe(503);
    expect(await inFlight.json()).toMatchObject({
      error: { code: 'UNAVAILABLE', message: expect.stringMatching(/database is unavailable.*try again/) },
    });
    const refused = await call('echo', { text: 'hi' });
    expect(refused.status).toBe(503);

    proxy.on();
    expect((await until(health, (h) => h.status === 200)).body).toEqual({ ok: true });
    const after = await until(
      () => call('echo', { text: 'hi' }).then((r) => r.status),
      (s) => s === 200,
    );
    expect(after).toBe(200);
    // The call that was waiting is not left behind: pending, and its late result reaches the inbox.
    const [left] = open;
    expect(
      (
        await until(
          () => store.getCall(left.callId),
          (c) => c?.status === 'pending',
        )
      )?.status,
    ).toBe('pending');
    const submitted = await fetch(`${base}/api/runs/r1/tool-results`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ callId: left.callId, result: 'late' }),
    });
    expect(await submitted.json()).toMatchObject({ delivered: 'inbox' });
    expect(await store.listInbox('a', { limit: 10 })).toMatchObject([{ callId: left.callId, result: 'late' }]);

    await gw.close();
    await store.close();
    await proxy.close();
  }, 60_000);
});
