// Bounded answers and memory: 150 calls with 3.9 MB inputs, then every listing at its largest limit.
// No 500, each page bounded in size (large fields cut to a preview linking to the whole record), and
// the gateway's RSS (a child process, measured after a full GC) back within 100 MB of its baseline.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway, startGatewayProcess, type GatewayProcess } from '../__fixtures__/gateway-process.js';

const dir = mkdtempSync(join(tmpdir(), 'tb-gw-mem-'));
let gw: GatewayProcess;
beforeAll(async () => {
  buildGateway();
  gw = await startGatewayProcess(join(dir, 'gateway.db'), { gc: true });
}, 120_000);
afterAll(async () => {
  await gw?.kill();
  rmSync(dir, { recursive: true, force: true });
});

const MB = 1024 * 1024;
const get = async (path: string) => {
  const res = await fetch(`${gw.url}${path}`);
  const text = await res.text();
  return { status: res.status, size: text.length, body: JSON.parse(text) as Record<string, unknown> };
};
const call = (i: number, blob: string) =>
  fetch(`${gw.url}/api/runs/r1/tool-calls`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agentId: 'agent-a', name: 'sink', callId: `big-${i}`, input: { i, blob } }),
  }).then((r) => r.status);

describe('bounded listings and memory under large payloads', () => {
  it('lists 150 calls of 3.9 MB each at the largest limits without a 500, and gives the memory back', async () => {
    // Warm up the code paths, so the baseline is the gateway at work, not at start.
    expect(await call(-1, 'small')).toBe(200);
    for (const path of ['/api/tool-calls?limit=500', '/api/executions?limit=1000'])
      expect((await get(path)).status).toBe(200);
    const baseline = await gw.rss();
    const blob = 'x'.repeat(3.9 * 1000 * 1000);
    for (let i = 0; i < 150; i += 2) expect(await Promise.all([call(i, blob), call(i + 1, blob)])).toEqual([200, 200]);

    const calls = await get('/api/tool-calls?limit=500');
    expect(calls.status).toBe(200);
    // The control that the payloads are large: one call in full is its 3.9 MB.
    const [first] = calls.body.calls as { truncated?: { href: string; fields: string[] } }[];
    expect(first.truncated?.fields).toEqual(['input']);
    expect((await get(first.truncated!.href)).size).toBeGreaterThan(3.9 * 1000 * 1000);
    expect(calls.size).toBeLessThan(8 * MB);
    const executions = await get('/api/executions?limit=1000');
    expect(executions.status).toBe(200);
    expect((executions.body.entries as unknown[]).length).toBeGreaterThanOrEqual(150);
    expect(executions.size).toBeLessThan(8 * MB);
    // Page through every call: each page bounded, every call listed once.
    const seen = new Set<string>();
    for (let before: number | undefined, pages = 0; pages < 50; pages++) {
      const page = await get(`/api/tool-calls?limit=500${before ? `&before=${before}` : ''}`);
      expect(page.status).toBe(200);
      for (const c of page.body.calls as { callId: string }[]) seen.add(c.callId);
      before = page.body.nextBefore as number | undefined;
      if (!before) break;
    }
    expect(seen.size).toBe(151);

    const after = await gw.rss();
    console.log(
      `gateway RSS: baseline ${Math.round(baseline / MB)} MB, after 150 × 3.9 MB calls and every listing ${Math.round(after / MB)} MB`,
    );
    expect(after - baseline).toBeLessThan(100 * MB);
  }, 180_000);
});
