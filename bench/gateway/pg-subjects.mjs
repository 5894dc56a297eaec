// The PostgreSQL subjects of the gateway benchmark: gateway instances on one PostgreSQL database,
// each its own process, and a load generator that spreads its connections over them.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { storedRowsQuery } from './same-work.mjs';

export const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Why PostgreSQL cannot be used, or undefined when it can. */
export async function pgProblem() {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    return undefined;
  } catch (err) {
    return err.message || String(err);
  } finally {
    await c.end().catch(() => {});
  }
}

/** What a gateway instance process says of itself (see instance.mjs). */
export async function instanceStats(child) {
  const answer = once(child, 'message');
  child.send('stats');
  return (await answer)[0].stats;
}

/** One query on a connection of its own. */
export async function sql(text, params = []) {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    return (await c.query(text, params)).rows;
  } finally {
    await c.end();
  }
}

/** `n` gateway instances sharing a fresh schema; stop() ends them and drops the schema. */
export async function startPgInstances(n, token) {
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const children = [];
  const urls = [];
  for (let i = 0; i < n; i++) {
    const child = fork(new URL('./instance.mjs', import.meta.url), [PG_URL, schema, token], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    children.push(child);
    urls.push((await once(child, 'message'))[0].url);
  }
  return {
    urls,
    schema,
    pids: children.map((c) => c.pid),
    /** What each instance says of itself (see instance.mjs). */
    stats: () => Promise.all(children.map(instanceStats)),
    /** Rows the load left: calls, log entries, events. */
    counts: async () => {
      const [r] = await sql(storedRowsQuery(`${schema}.`));
      return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(v)]));
    },
    /** Transactions committed in the database so far (all its users). */
    commits: async () =>
      Number((await sql(`SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()`))[0].xact_commit),
    async stop() {
      for (const c of children) c.kill('SIGTERM');
      await Promise.all(children.map((c) => (c.exitCode === null ? once(c, 'exit') : undefined)));
      await sql(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    },
  };
}

/**
 * One autocannon run, or for a list of targets one run per target at once, the connections split
 * between them, and their figures added up.
 */
export async function loadAll(o, connections, duration) {
  if (!Array.isArray(o)) return autocannon({ ...o, connections, duration });
  const parts = await Promise.all(
    o.map((x) => autocannon({ ...x, connections: Math.max(1, Math.round(connections / o.length)), duration })),
  );
  const sum = (f) => parts.reduce((n, p) => n + f(p), 0);
  return {
    requests: { total: sum((p) => p.requests.total) },
    duration: Math.max(...parts.map((p) => p.duration)),
    latency: { p50: Math.max(...parts.map((p) => p.latency.p50)), p99: Math.max(...parts.map((p) => p.latency.p99)) },
    non2xx: sum((p) => p.non2xx),
    errors: sum((p) => p.errors),
    timeouts: sum((p) => p.timeouts),
  };
}

/** Idle and total CPU time of the machine so far, all cores. */
export function cpuTimes() {
  let idle = 0;
  let total = 0;
  for (const c of cpus()) {
    idle += c.times.idle;
    total += c.times.user + c.times.nice + c.times.sys + c.times.irq + c.times.idle;
  }
  return { idle, total };
}

/** The share of the machine's CPU busy between two cpuTimes() readings. */
export const busyBetween = (a, b) => 1 - (b.idle - a.idle) / Math.max(1, b.total - a.total);
