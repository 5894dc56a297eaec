// One gateway instance on PostgreSQL for the benchmark, in its own process: argv[2] is the database
// URL, argv[3] the schema every instance of the run shares. Says its URL once it listens.
import { rmSync } from 'node:fs';
import { Policy, ToolRegistry } from '../../packages/core/dist/index.js';
import { createGateway, openPgStore, policyWithStore } from '../../packages/gateway/dist/index.js';
import { noteTools } from './notes.mjs';

const [url, schema, token] = process.argv.slice(2);
const { dir, readNote, echoNote } = noteTools();
const store = await openPgStore(url, { schema });
const registry = new ToolRegistry().register(readNote).register(echoNote);
const gateway = await createGateway({
  registry,
  policy: await policyWithStore(new Policy({ mode: 'safe', roots: [dir] }), store),
  store,
  config: { gateway: { tokens: [{ token, roles: ['admin'] }] } },
  env: {},
});
const gw = await gateway.listen({ host: '127.0.0.1', port: 0 });
const stop = async () => {
  await gateway.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
process.send({ url: gw.url });
