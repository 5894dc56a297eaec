// The cost benchmark's figures, goals and capacity model, as printed and as written to docs/benchmarks.md.
import { IDLE_TEXT, SCALE_TEXT } from './cost-text.mjs';

export const PG1 = 'postgres, 1 instance';
export const PG2 = 'postgres, 2 instances, each with the load of one';
export const PG2_SPLIT = 'postgres, 2 instances sharing the load of one';

/** The key under which an instance counts the notifications it received (see pg-queries.mjs). */
const NOTIFIED = '(notification received)';
const us = (s, calls) => (s / calls) * 1e6;
const fmt = (x) => Math.round(x).toLocaleString('en-US');
const pct = (x) => `${(x * 100).toFixed(0)}%`;
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Per-call figures of one run. */
function perCall(run) {
  const gateway = us(run.gatewayS, run.ok);
  const backends = us(run.backendsS, run.ok);
  const background = us(run.backgroundS, run.ok);
  return { gateway, backends, background, pg: backends + background, total: gateway + backends + background };
}

/** The run with the median total cost among a subject's rounds, and the spread of the totals. */
function summarize(runs) {
  const sorted = [...runs].sort((a, b) => perCall(a).total - perCall(b).total);
  const mid = sorted[Math.floor(sorted.length / 2)];
  return {
    ...perCall(mid),
    min: perCall(sorted[0]).total,
    max: perCall(sorted[sorted.length - 1]).total,
    rate: median(runs.map((r) => r.ok / r.wall)),
    elu: median(runs.map((r) => r.elu.reduce((a, b) => a + b, 0) / r.elu.length)),
    gatewayBusy: median(runs.map((r) => r.gatewayS / r.wall / r.elu.length)),
    loadUs: median(runs.map((r) => us(r.loadS, r.ok))),
    machineBusy: median(runs.map((r) => r.machineBusy)),
    callsPerCommit: runs[0].callsPerCommit === undefined ? undefined : median(runs.map((r) => r.callsPerCommit)),
    backendCount: Math.max(...runs.map((r) => r.backendCount)),
    connections: runs[0].connections,
    statements: Object.fromEntries(Object.entries(mid.statements ?? {}).map(([k, n]) => [k, n / mid.ok])),
    notifications: (mid.statements?.[NOTIFIED] ?? 0) / mid.ok,
    loopRan: median(runs.map((r) => mean(r.mainRun))),
    loopWaited: median(runs.map((r) => mean(r.mainWait))),
    inside: median(runs.map((r) => r.inside / r.elu.length)),
    insideMs: median(runs.map((r) => r.insideMs)),
    cycleMs: median(runs.map((r) => (r.connections * r.elu.length * r.wall * 1000) / r.ok)),
    // CPU per call of the instances' event-loop threads alone, and of the load generator.
    loopUs: median(runs.map((r) => us(r.mainRun.reduce((a, b) => a + b, 0) * r.wall, r.ok))),
    loadRan: median(runs.map((r) => r.loadRun)),
    loadWaited: median(runs.map((r) => r.loadWait)),
  };
}

function costTable(names, tools, cost) {
  const lines = [
    '| subject | connections per instance | tool | calls/s here | statements to PostgreSQL per call | notifications received per call | gateway µs/call | PostgreSQL backends µs/call | PostgreSQL background µs/call | total µs/call (min–max) | calls/s per core | event loop busy | gateway process CPU / wall |',
    '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const t of tools)
    for (const g of names) {
      const c = cost[g][t];
      const statements = Object.entries(c.statements).reduce((a, [k, n]) => a + (k === NOTIFIED ? 0 : n), 0);
      lines.push(
        `| ${g} | ${c.connections} | ${t} | ${fmt(c.rate)} | ${g === 'sqlite' ? '–' : statements.toFixed(2)} | ${g === 'sqlite' ? '–' : c.notifications.toFixed(2)} | ${fmt(c.gateway)} | ${fmt(c.backends)} | ${fmt(c.background)} | ${fmt(c.total)} (${fmt(c.min)}–${fmt(c.max)}) | ${fmt(1e6 / c.total)} | ${pct(c.elu)} | ${pct(c.gatewayBusy)} |`,
      );
    }
  return lines.join('\n');
}

/** Where each instance's event-loop thread spent the wall time, and where the requests were. */
function loopTable(names, tools, cost) {
  const lines = [
    '| subject | tool | loop thread ran | waited for a core | slept | event loop busy | loop thread µs/call (of the process) | requests inside an instance at once (of its connections) | ms inside per request | ms per request and connection, end to end | load generator ran / waited |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const t of tools)
    for (const g of names) {
      const c = cost[g][t];
      const slept = Math.max(0, 1 - c.loopRan - c.loopWaited);
      lines.push(
        `| ${g} | ${t} | ${pct(c.loopRan)} | ${pct(c.loopWaited)} | ${pct(slept)} | ${pct(c.elu)} | ${fmt(c.loopUs)} (${fmt(c.gateway)}) | ${c.inside.toFixed(1)} (of ${c.connections}) | ${c.insideMs.toFixed(2)} | ${c.cycleMs.toFixed(2)} | ${pct(c.loadRan)} / ${pct(c.loadWaited)} |`,
      );
    }
  return lines.join('\n');
}

/**
 * N instances on machines of their own and one PostgreSQL server: an instance serves at most what its
 * event-loop thread allows on one core, and needs its process's CPU and PostgreSQL's for that.
 */
function capacityTable(c2, tool) {
  const rate = 1e6 / c2.loopUs;
  const lines = [
    `| instances (${tool}) | calls/s they serve at most | cores on the instances' machines | PostgreSQL cores | calls/s per core, all processes |`,
    '|---:|---:|---:|---:|---:|',
  ];
  for (const n of [1, 2, 4, 8, 16])
    lines.push(
      `| ${n} | ${fmt(n * rate)} | ${((n * rate * c2.gateway) / 1e6).toFixed(1)} | ${((n * rate * c2.pg) / 1e6).toFixed(1)} | ${fmt(1e6 / c2.total)} |`,
    );
  return lines.join('\n');
}

/**
 * How busy a quiet machine would be with the event-loop thread on one core all the time: the
 * process (all its threads) and the load generator at the rate that thread allows, over every core.
 */
function ceilingLine(c, tool) {
  const rate = 1e6 / c.loopUs;
  const busy = ((c.gateway + c.loadUs) * rate) / 1e6 / 2;
  const verdict =
    busy <= 1
      ? `would keep a quiet 2-core machine ${pct(busy)} busy`
      : `would need ${pct(busy)} of a 2-core machine: the cores, not the loop, would be the limit`;
  return `SQLite mode, ${tool}: the event-loop thread needs ${fmt(c.loopUs)} µs per call, so one core of it serves at most ${fmt(rate)} calls/s; at that rate the gateway process (${fmt(c.gateway)} µs per call, all threads) and the load generator (${fmt(c.loadUs)} µs) ${verdict}`;
}

/** The lowest and highest ratio of two subjects' totals within one round, over the rounds. */
function roundRange(runs, tool, a, b) {
  const total = (r) => r.gatewayS + r.backendsS + r.backgroundS;
  const ratios = [];
  for (const x of runs.filter((r) => r.subject === a && r.tool === tool)) {
    const y = runs.find((r) => r.subject === b && r.tool === tool && r.round === x.round);
    if (y) ratios.push(total(x) / x.ok / (total(y) / y.ok));
  }
  return `rounds ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
}

/** The goals as summary lines, and as records for the goal table (`records`). */
function goals(cost, tools, runs) {
  const out = [];
  out.records = [];
  for (const t of tools) {
    const sqlite = cost.sqlite[t].total;
    const one = cost[PG1][t].total;
    const two = cost[PG2][t].total;
    const split = cost[PG2_SPLIT][t].total;
    out.push(
      `${t}: PostgreSQL mode, one instance, costs ${(one / sqlite).toFixed(2)}x SQLite mode's CPU per call (${fmt(one)} vs ${fmt(sqlite)} µs, ${roundRange(runs, t, PG1, 'sqlite')}; goal <= 1.5x): ${one / sqlite <= 1.5 ? 'met' : 'NOT met'}`,
      `${t}: two instances on one database, each with the load of one, cost ${(two / one).toFixed(2)}x one instance's CPU per call (${fmt(two)} vs ${fmt(one)} µs, ${roundRange(runs, t, PG2, PG1)}; goal <= 1.1x): ${two / one <= 1.1 ? 'met' : 'NOT met'}`,
      `${t}: two instances sharing the load of one cost ${(split / one).toFixed(2)}x one instance's CPU per call (${fmt(split)} µs): each gathers half as many calls per statement and commit`,
    );
    out.records.push(
      {
        goal: `${t}: CPU per call, all processes: PostgreSQL mode <= 1.5x SQLite mode`,
        met: one / sqlite <= 1.5,
        figure: `${(one / sqlite).toFixed(2)}x (${fmt(one)} vs ${fmt(sqlite)} µs)`,
        why: 'the PostgreSQL backends and socket writes per call; see the gateway-cost section',
      },
      {
        goal: `${t}: CPU per call, two instances <= 1.1x one instance`,
        met: two / one <= 1.1,
        figure: `${(two / one).toFixed(2)}x (${fmt(two)} vs ${fmt(one)} µs)`,
        why: 'see the gateway-cost section',
      },
    );
  }
  return out;
}

export function costSection({
  runs,
  stored,
  names,
  tools,
  calls,
  rounds,
  load,
  cores,
  date = new Date().toISOString().slice(0, 10),
}) {
  const cost = Object.fromEntries(
    names.map((g) => [
      g,
      Object.fromEntries(tools.map((t) => [t, summarize(runs.filter((r) => r.subject === g && r.tool === t))])),
    ]),
  );
  const loadLine = `load average ${load.map((x) => x.toFixed(1)).join(' / ')} (1 / 5 / 15 min) on ${cores} cores when it started, ${date}`;
  const sqliteRead = cost.sqlite[tools[0]];
  const held = goals(cost, tools, runs);
  const summary = [
    ...held,
    `all ${names.length} subjects completed ${calls.toLocaleString('en-US')} calls per tool and round with the same answers, and their stores gained the same rows: ${Object.entries(
      stored[names[0]],
    )
      .map(([k, v]) => `${v.toLocaleString('en-US')} ${k}`)
      .join(', ')}`,
    `SQLite mode, ${tools[0]}: the gateway's event-loop thread ran ${pct(sqliteRead.loopRan)} of the wall time, waited for a core ${pct(sqliteRead.loopWaited)} and slept ${pct(Math.max(0, 1 - sqliteRead.loopRan - sqliteRead.loopWaited))}; ${sqliteRead.callsPerCommit?.toFixed(1) ?? '?'} calls per commit; the machine ${pct(sqliteRead.machineBusy)} busy (all its work); the load generator spends ${fmt(sqliteRead.loadUs)} µs per call`,
    ...tools.map((t) => ceilingLine(cost.sqlite[t], t)),
    loadLine,
  ];
  const model = tools.map((t) => modelText(cost, t)).join('\n\n');
  const markdown = `## gateway — CPU per call by store, and a capacity model

Throughput on this 2-core machine cannot show whether instances scale out: one instance and
PostgreSQL already share both cores. What predicts it is the work per call: **CPU seconds per call
summed over every process that serves it**, read from \`/proc/<pid>/stat\` (user + system, every
thread) before and after a fixed number of calls: the gateway instances (for SQLite, the gateway
process alone: its store is in process, with its checkpoint thread), the PostgreSQL backends serving
the instances' connections (found in \`pg_stat_activity\` by the client ports of the instances' sockets),
and PostgreSQL's background processes (WAL writer, checkpointer, background writer; they serve every
database on the server, so other work on it shows up there too). The load generator is not counted.
Each subject is a fresh store (a SQLite file, a PostgreSQL schema of its own) with \`read_note\` and
\`echo_note\` as in the section above; ${calls.toLocaleString('en-US')} calls per tool, subject and round, ${rounds} rounds, the
order of the subjects turning each round. Connections are per instance: scaled out, each of two
instances serves as many connections as one alone (twice the load in all; the goal's subject), and
a last subject splits one instance's load between two. Each PostgreSQL instance's two pools hold at
most 8 connections (the defaults are 10 and 20), so that five instances stay within the server's
100 connections beside other users: a run that hit the limit failed its check. The run fails, writing nothing here, unless
every subject answered every call with the same answer and its store gained the same rows in the measured rounds (calls,
log entries, each call's three events; \`agent.state\` events are counted but not compared, as their
number depends on how calls overlap). Node ${process.version}, ${process.platform}/${process.arch}. ${loadLine[0].toUpperCase()}${loadLine.slice(1)}.

${costTable(names, tools, cost)}

"calls/s here" is what this shared machine gave, with the load generator on the same cores;
"calls/s per core" is what the CPU per call allows: 1 / (total µs per call). The total is the median
of the rounds; min–max is the spread of the rounds.

- ${summary.join('\n- ')}

Where each instance's event-loop thread spent the wall time (\`/proc/<pid>/task/<pid>/schedstat\`:
running, waiting in a run queue for a core, and the rest asleep in epoll with nothing to do), its
event-loop utilization (\`performance.eventLoopUtilization()\`, which counts time the thread was
descheduled inside a callback as busy), how many requests were inside the instance at once on
average (from headers parsed to answer written, through \`diagnostics_channel\`: Little's law) and
how long each connection took per request end to end:

${loopTable(names, tools, cost)}

**Capacity model.** ${model}

${SCALE_TEXT}

${IDLE_TEXT}

Run: \`npm run build && node bench/gateway/cost.mjs\` (also run by \`bench/gateway/run.mjs\`; BENCH_COST_CALLS, BENCH_COST_ROUNDS, BENCH_CONNECTIONS, BENCH_COST_TOOLS, BENCH_PG_URL).`;
  return { markdown, summary, goals: held.records };
}

/** The statements of a subject's calls, the most frequent first. */
const statementList = (c) =>
  Object.entries(c.statements)
    .filter(([k, n]) => k !== NOTIFIED && n >= 0.005)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `\`${k}…\` ${n.toFixed(2)}`)
    .join(', ');

function modelText(cost, t) {
  const s = cost.sqlite[t];
  const p1 = cost[PG1][t];
  const p2 = cost[PG2][t];
  return `With \`${t}\`: SQLite mode costs ${fmt(s.total)} µs of CPU per call, all of it the gateway
process: ${fmt(1e6 / s.total)} calls/s per core, and it cannot scale out (one process owns the file).
On PostgreSQL one instance costs ${fmt(p1.total)} µs per call: the gateway ${fmt(p1.gateway)} (${pct(p1.gateway / p1.total)}),
PostgreSQL ${fmt(p1.pg)} (${pct(p1.pg / p1.total)}: backends ${fmt(p1.backends)}, background ${fmt(p1.background)}); its statements per call: ${statementList(p1)}. Of the ${fmt(p1.total - s.total)} µs per call it costs beyond SQLite mode, PostgreSQL's processes spend ${fmt(p1.pg)} (${pct(p1.pg / (p1.total - s.total))}) and the gateway ${fmt(p1.gateway - s.gateway)} more than with its in-process store. With two instances
${fmt(p2.total)} µs: the gateway ${fmt(p2.gateway)} (${pct(p2.gateway / p2.total)}), PostgreSQL ${fmt(p2.pg)} (${pct(p2.pg / p2.total)}).
Instances share nothing but the database (and the notifications, below), so N instances on
N machines serve N times what one serves. One instance is bounded by its event-loop thread: at
${fmt(p2.loopUs)} µs of it per call, ${fmt(1e6 / p2.loopUs)} calls/s on one core, for which its process (all threads) takes
${(p2.gateway / p2.loopUs).toFixed(2)} cores and PostgreSQL ${(p2.pg / p2.loopUs).toFixed(2)} (its ${fmt(p2.pg)} µs per call); by the two-instance figures:

${capacityTable(p2, t)}`;
}
