// One gateway from the build at argv[2] (a checkout's root, built), on SQLite with auth on, serving
// echo_note: the gateway's own cost per call, with no tool I/O. Run by compare.mjs, once per build.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = process.argv[2];
const load = (rel) => import(pathToFileURL(join(root, rel)).href);
const core = await load('packages/core/dist/index.js');
const gw = await load('packages/gateway/dist/index.js');

const TOKEN = 'bench-token-0123456789abcdef';
const NOTE = '# Notes\n\nThe quick brown fox jumps over the lazy dog.\n'.repeat(20);
const dir = mkdtempSync(join(tmpdir(), 'tb-before-after-'));
const echoNote = core.defineTool({
  name: 'echo_note',
  description: 'Returns the note, kept in memory.',
  effect: 'read',
  input: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
  execute: async () => NOTE,
});
const registry = new core.ToolRegistry().register(echoNote);
const store = gw.openSqliteStore(join(dir, 'gateway.db'));
const policy = await gw.policyWithStore(new core.Policy({ mode: 'safe', roots: [dir] }), store);
const gateway = await gw.createGateway({
  registry,
  policy,
  store,
  config: { gateway: { tokens: [{ token: TOKEN, roles: ['admin'] }] } },
  env: {},
});
const { url } = await gateway.listen({ host: '127.0.0.1', port: 0 });
const stop = () => {
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('disconnect', stop);
process.send({ url, token: TOKEN });
