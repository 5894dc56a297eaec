// One gateway instance for the benchmark, in its own process. argv[2] is a PostgreSQL URL (argv[3]
// the schema every instance of the run shares) or `sqlite` (a database file in the instance's temp
// directory). Says its URL once it listens; answers 'stats' with its event-loop utilization and the
// time requests spent inside it so far, for SQLite its commits and stored rows, for PostgreSQL the
// statements it sent.
import { subscribe } from 'node:diagnostics_channel';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Policy, ToolRegistry } from '../../packages/core/dist/index.js';
import { createGateway, openPgStore, openSqliteStore, policyWithStore } from '../../packages/gateway/dist/index.js';
import { noteTools } from './notes.mjs';
import { countQueries } from './pg-queries.mjs';
import { storedRowsQuery } from './same-work.mjs';

const [url, schema, token] = process.argv.slice(2);
const { dir, readNote, echoNote } = noteTools();
const sqlite = url === 'sqlite';
// Connections named for the bench, so that tests of other work on the same server that end the
// gateway's connections by name leave these alone; pools of 8, so that the bench's five instances
// stay well within PostgreSQL's 100 connections beside other users (the defaults are 10 and 20).
const named = sqlite ? '' : `${url}${url.includes('?') ? '&' : '?'}application_name=toolbelt-bench`;
const store = sqlite
  ? openSqliteStore(join(dir, 'gateway.db'))
  : await openPgStore(named, { schema, maxConnections: 8 });
const commits = sqlite ? countCommits(store.db) : undefined;
const queries = sqlite ? undefined : countQueries();
const registry = new ToolRegistry().register(readNote).register(echoNote);
const gateway = await createGateway({
  registry,
  policy: await policyWithStore(new Policy({ mode: 'safe', roots: [dir] }), store),
  store,
  config: { gateway: { tokens: [{ token, roles: ['admin'] }] } },
  env: {},
});
const gw = await gateway.listen({ host: '127.0.0.1', port: 0 });

/** SQLite's group commits, counted and timed from outside (the store runs them with db.exec('COMMIT')). */
function countCommits(db) {
  const out = { count: 0, ms: 0 };
  const exec = db.exec.bind(db);
  db.exec = (sql) => {
    if (sql !== 'COMMIT') return exec(sql);
    const t0 = performance.now();
    try {
      return exec(sql);
    } finally {
      out.count++;
      out.ms += performance.now() - t0;
    }
  };
  return out;
}

/**
 * Seconds requests spent inside this process, from their headers parsed to their answer written,
 * summed (over the wall time: how many were inside at once, on average, by Little's law).
 */
function timeInside() {
  const out = { seconds: 0, count: 0 };
  const started = new WeakMap();
  subscribe('http.server.request.start', ({ response }) => started.set(response, performance.now()));
  subscribe('http.server.response.finish', ({ response }) => {
    const t0 = started.get(response);
    if (t0 === undefined) return;
    out.seconds += (performance.now() - t0) / 1000;
    out.count++;
  });
  return out;
}
const inside = timeInside();

async function stats() {
  const elu = performance.eventLoopUtilization();
  if (!sqlite) return { elu, inside, queries: { ...queries } };
  await gateway.recorder.flush();
  return { elu, inside, commits, rows: store.db.prepare(storedRowsQuery()).get() };
}

const stop = async () => {
  await gateway.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
process.on('message', async (m) => m === 'stats' && process.send({ stats: await stats() }));
process.send({ url: gw.url });
