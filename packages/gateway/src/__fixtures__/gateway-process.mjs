// A gateway in its own process, for tests that kill it (SIGKILL) or measure its memory: built from
// dist (the test builds it first). Usage: node [--expose-gc] gateway-process.mjs <db file or postgres URL> [schema]
// Tells its parent { url } once it listens; answers the message 'rss' with { rss } after a full GC.
import { defineTool, Policy, ToolRegistry } from '@toolbelt/core';
import { createGateway, openPgStore, openSqliteStore, policyWithStore } from '../../dist/index.js';

const [db, schema] = process.argv.slice(2);
const store = db.startsWith('postgres') ? await openPgStore(db, { schema, queryTimeoutMs: 5000 }) : openSqliteStore(db);
const sink = defineTool({
  name: 'sink',
  description: 'Takes anything, answers ok.',
  input: { type: 'object' },
  effect: 'read',
  execute: () => 'ok',
});
const registry = new ToolRegistry().registerAll([sink]);
const config = {
  gateway: { cycleLeaseMs: Number(process.env.CYCLE_LEASE_MS ?? 300_000) },
  tools: [
    {
      name: 'lookup',
      description: 'Answered by an external executor.',
      inputSchema: { type: 'object' },
      executionType: 'external',
      effect: 'read',
      visible: false,
      timeout: Number(process.env.LOOKUP_TIMEOUT_MS ?? 30_000),
    },
  ],
};
const policy = await policyWithStore(new Policy({ mode: 'yolo' }), store);
const gw = await createGateway({ registry, policy, store, config, env: {} });
const { url } = await gw.listen({ host: '127.0.0.1', port: 0 });
process.on('message', (m) => {
  if (m !== 'rss') return;
  globalThis.gc?.();
  globalThis.gc?.();
  process.send({ rss: process.memoryUsage().rss });
});
process.on('SIGTERM', async () => {
  await gw.close();
  await store.close();
  process.exit(0);
});
process.send({ url });
