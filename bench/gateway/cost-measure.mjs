// One measured run of the cost benchmark: a fixed number of gateway calls against a group of
// instances, with the CPU every process involved spent on them read from /proc before and after.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { backendsOf, backgroundPids, cpuSeconds, mainThreadTimes } from './proc-cpu.mjs';
import { busyBetween, cpuTimes, instanceStats, PG_URL, sql } from './pg-subjects.mjs';

const PG_PORT = Number(new URL(PG_URL).port || 5432);

/** One SQLite gateway instance in its own process, shaped like startPgInstances' answer. */
export async function startSqliteInstance(token) {
  const child = fork(new URL('./instance.mjs', import.meta.url), ['sqlite', '', token], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { url } = (await once(child, 'message'))[0];
  return {
    urls: [url],
    pids: [child.pid],
    stats: async () => [await instanceStats(child)],
    counts: async () => (await instanceStats(child)).rows,
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

/** The answer of a call without what differs from call to call (its id, timings). */
const answerOf = (body) => {
  const a = JSON.parse(body);
  return JSON.stringify({ status: a.status, content: a.content, isError: a.isError ?? false });
};

/** `calls` calls of `tool`, split evenly over the group's instances, each with `connections` of its own. */
async function drive(urls, tool, calls, connections, token) {
  const answers = new Map();
  let failed = 0;
  const samples = [];
  const onResponse = (status, body) => {
    if (status !== 200) {
      if (samples.length < 3) samples.push(`${status} ${body.slice(0, 200)}`);
      return void failed++;
    }
    const key = answerOf(body);
    answers.set(key, (answers.get(key) ?? 0) + 1);
  };
  const request = {
    method: 'POST',
    path: '/api/runs/bench-run/tool-calls',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ agentId: 'bench-agent', name: tool, input: { path: 'notes.md' } }),
    onResponse,
  };
  const parts = await Promise.all(
    urls.map((url) => autocannon({ url, connections, amount: calls / urls.length, requests: [request] })),
  );
  for (const p of parts) failed += p.errors + p.timeouts;
  const ok = [...answers.values()].reduce((n, x) => n + x, 0);
  return { ok, answers, failed, samples };
}

/** CPU seconds of each pid, as a Map. */
const cpuOf = (pids) => new Map(pids.map((p) => [p, cpuSeconds(p)]).filter(([, s]) => s !== undefined));

async function snapshot(group, background) {
  const backends = group.pg ? await backendsOf(group.pids, PG_PORT, sql) : [];
  return {
    gateway: cpuOf(group.pids),
    main: group.pids.map(mainThreadTimes),
    loadMain: mainThreadTimes(process.pid),
    backends: cpuOf(backends),
    background: cpuOf(background),
    stats: await group.stats(),
    load: process.cpuUsage(),
    machine: cpuTimes(),
    wall: performance.now(),
  };
}

/** CPU seconds spent between two readings; a process that appeared in between counts from zero. */
function spent(before, after) {
  let s = 0;
  for (const [pid, cpu] of after) s += cpu - (before.get(pid) ?? 0);
  const gone = [...before.keys()].filter((p) => !after.has(p)).length;
  return { s, gone };
}

/** Statements the instances sent to PostgreSQL between two readings, by kind, summed over instances. */
function statementsBetween(before, after) {
  const out = {};
  after.forEach((s, i) => {
    for (const [k, n] of Object.entries(s.queries ?? {})) out[k] = (out[k] ?? 0) + n - (before[i].queries?.[k] ?? 0);
  });
  return out;
}

/** Event-loop utilization between two readings of performance.eventLoopUtilization(). */
const elu = (a, b) => (b.active - a.active) / Math.max(1e-9, b.active - a.active + b.idle - a.idle);

/** `calls` calls of `tool` against `group`, whose `connections` are per instance. */
export async function measure(group, tool, calls, token) {
  const background = group.pg ? await backgroundPids(sql) : [];
  const a = await snapshot(group, background);
  const work = await drive(group.urls, tool, calls, group.connections, token);
  const b = await snapshot(group, background);
  const backends = spent(a.backends, b.backends);
  const load = process.cpuUsage(a.load);
  const wall = (b.wall - a.wall) / 1000;
  const sqliteCommits = a.stats[0].commits ? b.stats[0].commits.count - a.stats[0].commits.count : undefined;
  return {
    ...work,
    wall,
    gatewayS: spent(a.gateway, b.gateway).s,
    backendsS: backends.s,
    backendsGone: backends.gone,
    backendCount: b.backends.size,
    backgroundS: spent(a.background, b.background).s,
    loadS: (load.user + load.system) / 1e6,
    elu: a.stats.map((s, i) => elu(s.elu, b.stats[i].elu)),
    // Each instance's event-loop thread: the share of the wall time it ran, and waited for a core.
    mainRun: a.main.map((m, i) => (b.main[i].run - m.run) / wall),
    mainWait: a.main.map((m, i) => (b.main[i].wait - m.wait) / wall),
    // The load generator's thread likewise (autocannon runs in this process).
    loadRun: (b.loadMain.run - a.loadMain.run) / wall,
    loadWait: (b.loadMain.wait - a.loadMain.wait) / wall,
    // Requests inside the instances at once, on average, and the time each spent inside.
    inside: a.stats.reduce((n, s, i) => n + (b.stats[i].inside.seconds - s.inside.seconds), 0) / wall,
    insideMs: (1000 * a.stats.reduce((n, s, i) => n + (b.stats[i].inside.seconds - s.inside.seconds), 0)) / calls,
    machineBusy: busyBetween(a.machine, b.machine),
    statements: statementsBetween(a.stats, b.stats),
    callsPerCommit: sqliteCommits ? calls / sqliteCommits : undefined,
    commitMs: sqliteCommits ? b.stats[0].commits.ms - a.stats[0].commits.ms : undefined,
  };
}
