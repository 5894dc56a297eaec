// The gateway's cost per call, by store: CPU seconds per call summed over every process that serves
// it (the gateway instances and, on PostgreSQL, the backends serving their connections and the
// server's background writers), read from /proc. What predicts how far instances scale out on
// machines of their own, where throughput on this shared 2-core machine cannot.
// Runs by itself (`node bench/gateway/cost.mjs`) and from bench/gateway/run.mjs; cost-render.mjs
// rewrites the docs from the last run's results.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { benchRoot, writeDocSection } from '../lib/harness.mjs';
import { measure, startSqliteInstance } from './cost-measure.mjs';
import { costSection, PG1, PG2, PG2_SPLIT } from './cost-report.mjs';
import { pgProblem, PG_URL, startPgInstances } from './pg-subjects.mjs';
import { workDifferences } from './same-work.mjs';

const CALLS = Number(process.env.BENCH_COST_CALLS ?? 6000);
const ROUNDS = Number(process.env.BENCH_COST_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const TOOLS = (process.env.BENCH_COST_TOOLS ?? 'read_note,echo_note').split(',');
const TOKEN = 'bench-token-0123456789abcdef';
const load = loadavg();

const pgWhy = await pgProblem();
if (pgWhy) {
  console.warn(
    `bench/gateway cost: PostgreSQL at ${PG_URL} cannot be used (${pgWhy}); set BENCH_PG_URL. Nothing measured, docs unchanged.`,
  );
  process.exit(0);
}
// Connections are per instance: two instances scaled out each serve as many as one alone (twice
// the load in all); the last group splits one instance's load between two, to show what that costs.
const starts = {
  sqlite: async () => ({ ...(await startSqliteInstance(TOKEN)), connections: CONNECTIONS }),
  [PG1]: async () => ({ ...(await startPgInstances(1, TOKEN)), pg: true, connections: CONNECTIONS }),
  [PG2]: async () => ({ ...(await startPgInstances(2, TOKEN)), pg: true, connections: CONNECTIONS }),
  [PG2_SPLIT]: async () => ({
    ...(await startPgInstances(2, TOKEN)),
    pg: true,
    connections: Math.max(1, Math.round(CONNECTIONS / 2)),
  }),
};
const groups = {};
try {
  for (const [name, start] of Object.entries(starts)) groups[name] = await start();
} catch (err) {
  // Those already started would keep listening after we exit: stop them (and drop their schemas).
  for (const g of Object.values(groups)) await g.stop();
  throw err;
}
const names = Object.keys(groups);

/** Rows each group's store holds now. */
const storedRows = async () =>
  Object.fromEntries(await Promise.all(names.map(async (g) => [g, await groups[g].counts()])));

const runs = [];
let stored;
try {
  // Warm-up: as many calls for every instance (JIT, heap, pools), whichever group it is in.
  for (const tool of TOOLS)
    for (const g of names) await measure(groups[g], tool, Math.min(2000, CALLS) * groups[g].urls.length, TOKEN);
  // The rows the measured calls leave are compared, not the warm-up's (more calls for two instances).
  const warm = await storedRows();
  for (let r = 0; r < ROUNDS; r++) {
    // The order of the groups turns each round, so a neighbour's burst does not always hit the same one.
    const order = names.map((_, i) => names[(i + r) % names.length]);
    for (const tool of TOOLS)
      for (const g of order) {
        const run = await measure(groups[g], tool, CALLS, TOKEN);
        runs.push({ subject: g, tool, round: r, connections: groups[g].connections, ...run });
        console.log(
          `${g}, ${tool}, round ${r + 1}: ${run.ok} calls in ${run.wall.toFixed(1)} s; µs CPU per call: gateway ${((run.gatewayS / run.ok) * 1e6).toFixed(0)}, backends ${((run.backendsS / run.ok) * 1e6).toFixed(0)}, background ${((run.backgroundS / run.ok) * 1e6).toFixed(0)}; event loop busy ${run.elu.map((x) => (x * 100).toFixed(0) + '%').join(', ')}, its thread ran ${run.mainRun.map((x) => (x * 100).toFixed(0) + '%').join(', ')} and waited for a core ${run.mainWait.map((x) => (x * 100).toFixed(0) + '%').join(', ')} of the time`,
        );
      }
  }
  const end = await storedRows();
  stored = Object.fromEntries(
    names.map((g) => [g, Object.fromEntries(Object.entries(end[g]).map(([k, n]) => [k, n - warm[g][k]]))]),
  );
} finally {
  for (const g of names) await groups[g].stop();
}

const problems = workDifferences(runs, stored, CALLS);
if (problems.length) {
  console.error(
    `bench/gateway cost: the subjects did not do the same work, so their costs cannot be compared:\n- ${problems.join('\n- ')}`,
  );
  process.exit(1);
}
// The raw runs, for a look at any round (answers as counts: a Map does not serialize).
mkdirSync(join(benchRoot, 'results'), { recursive: true });
const raw = runs.map((r) => ({ ...r, answers: Object.fromEntries(r.answers) }));
writeFileSync(
  join(benchRoot, 'results', 'gateway-cost.json'),
  JSON.stringify(
    { date: new Date().toISOString(), load, calls: CALLS, rounds: ROUNDS, names, tools: TOOLS, stored, runs: raw },
    null,
    2,
  ) + '\n',
);
const { markdown, summary, goals } = costSection({
  runs,
  stored,
  names,
  tools: TOOLS,
  calls: CALLS,
  rounds: ROUNDS,
  load,
  cores: cpus().length,
});
console.log(summary.join('\n'));
writeDocSection('gateway-cost', markdown, goals);
