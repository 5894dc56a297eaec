// The servers under load, in their own process so the load generator does not share their core:
// a bare Hono app (the anchor) and the toolbelt gateway (auth on, SQLite log and events on).
import { rmSync, existsSync } from 'node:fs';
import { readFile as readFileAsync } from 'node:fs/promises';
import { join } from 'node:path';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import { Executor, Policy, ToolRegistry } from '../../packages/core/dist/index.js';
import { createGateway, openSqliteStore, policyWithStore } from '../../packages/gateway/dist/index.js';
import { noteTools } from './notes.mjs';

const TOKEN = 'bench-token-0123456789abcdef';
const { dir, readNote, echoNote } = noteTools();

/** The built-in read_file with its workspace guard, when the tools package is built. */
async function builtinReadFile() {
  const fsIndex = new URL('../../packages/tools/dist/fs/index.js', import.meta.url);
  if (!existsSync(fsIndex)) return undefined;
  try {
    const { readFile } = await import(fsIndex.href);
    const { WorkspaceGuard } = await import('../../packages/tools/dist/index.js');
    return readFile?.name === 'read_file'
      ? { tool: readFile, workspace: new WorkspaceGuard({ roots: [dir] }) }
      : undefined;
  } catch {
    return undefined;
  }
}

const listen = (fetch) =>
  new Promise((resolve) =>
    serve({ fetch, hostname: '127.0.0.1', port: 0 }, (info) => resolve(`http://127.0.0.1:${info.port}`)),
  );

const bare = new Hono();
bare.get('/', (c) => c.text('ok'));
bare.post('/echo', async (c) => c.json({ received: await c.req.json() }));
// Extra anchor, not the goal's: the same echo with the body read from Node's request stream, as the
// gateway reads it, instead of through the web Request that @hono/node-server builds for c.req.json().
const nodeBody = (incoming) =>
  new Promise((resolve, reject) => {
    const chunks = [];
    incoming.on('data', (chunk) => chunks.push(chunk));
    incoming.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    incoming.on('error', reject);
  });
bare.post('/echo-node', async (c) => c.json({ received: JSON.parse(await nodeBody(c.env.incoming)) }));
// The same work as a gateway call of read_note, with nothing else: parse, read the file, answer.
bare.post('/read', async (c) => {
  const { input } = await c.req.json();
  if (!/^[\w.-]+$/.test(input?.path ?? '')) return c.json({ error: 'bad path' }, 400);
  return c.json({
    status: 'success',
    content: [{ type: 'text', text: await readFileAsync(join(dir, input.path), 'utf8') }],
  });
});

const builtin = await builtinReadFile();
const registry = new ToolRegistry().register(readNote).register(echoNote);
if (builtin) registry.register(builtin.tool);
// The subjects; the gateway adds its built-in space tools to the registry, which are not measured.
const subjects = registry.list().map((t) => t.name);
const store = openSqliteStore(join(dir, 'gateway.db'));
const policy = await policyWithStore(new Policy({ mode: 'safe', roots: [dir] }), store);
const gateway = await createGateway({
  registry,
  policy,
  store,
  ...(builtin ? { workspace: builtin.workspace } : {}),
  config: { gateway: { tokens: [{ token: TOKEN, roles: ['admin'] }] } },
  env: {},
});
const gw = await gateway.listen({ host: '127.0.0.1', port: 0 });

/** What the tool costs by itself: executor calls in process, no HTTP, no store. */
async function executorCost(name) {
  const ex = new Executor({
    registry,
    policy: new Policy({ mode: 'safe', roots: [dir] }),
    ...(builtin ? { workspace: builtin.workspace } : {}),
  });
  const input = { path: 'notes.md' };
  for (let i = 0; i < 300; i++) await ex.call({ tool: name, input });
  const n = 2000;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await ex.call({ tool: name, input });
  return ((performance.now() - t0) / n) * 1000;
}

const stop = () => {
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
process.on('message', async (m) => {
  if (m === 'counts') {
    await gateway.recorder.flush();
    const count = (t) => store.db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get().n;
    process.send({ executions: count('executions'), events: count('events'), calls: count('tool_calls') });
  } else if (m === 'executor-cost') {
    const out = {};
    for (const t of subjects) out[t] = await executorCost(t);
    process.send(out);
  }
});
process.send({
  bare: await listen(bare.fetch),
  gateway: gw.url,
  token: TOKEN,
  tools: subjects,
  input: { path: 'notes.md' },
});
