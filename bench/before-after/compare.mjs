// Before and after a refactor, in the same run: `node bench/before-after/compare.mjs <before-root>`
// compares the build at <before-root> (another checkout, built) with this checkout's build on
// (1) dispatch: an executor call of a no-op tool, in process, both cores loaded side by side;
// (2) the gateway: POST tool-calls of echo_note under autocannon, one gateway process per build,
// rounds interleaved. Each pair must give the same answer before it is timed.
import { fork } from 'node:child_process';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { compare, machineLine, repoRoot, writeDocSection, assertSameWork } from '../lib/harness.mjs';

const beforeRoot = process.argv[2] && resolve(process.argv[2]);
if (!beforeRoot) {
  console.error('usage: node bench/before-after/compare.mjs <root of the "before" checkout, built>');
  process.exit(2);
}
const builds = { before: beforeRoot, after: repoRoot };
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);

async function executorOf(root) {
  const core = await import(pathToFileURL(join(root, 'packages/core/dist/index.js')).href);
  const { z } = await import(pathToFileURL(join(root, 'node_modules/zod/index.js')).href);
  const tool = core.defineTool({
    name: 'noop',
    description: 'Does nothing.',
    effect: 'read',
    input: z.object({ name: z.string(), count: z.number().int(), flag: z.boolean().optional() }),
    execute: (a) => `ok ${a.name}`,
  });
  return new core.Executor({
    registry: new core.ToolRegistry().register(tool),
    policy: new core.Policy({ mode: 'safe' }),
  });
}

async function dispatch() {
  const input = { name: 'abc', count: 3, flag: true };
  const ex = { before: await executorOf(builds.before), after: await executorOf(builds.after) };
  return compare({
    name: 'before-after-dispatch',
    anchor: 'before',
    iterations: Number(process.env.BENCH_ITER ?? 140000),
    warmup: 20000,
    answer: (r) => (r.status === 'success' ? r.content[0].text : r.status),
    subjects: {
      before: () => ex.before.call({ tool: 'noop', input }),
      after: () => ex.after.call({ tool: 'noop', input }),
    },
  });
}

function startGateway(root) {
  const child = fork(new URL('./server.mjs', import.meta.url), [root], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((ok, fail) => {
    child.once('message', (m) => ok({ ...m, child }));
    child.once('exit', (code) => fail(new Error(`the ${root} gateway exited with ${code}`)));
  });
}

const callOf = (gw, i) => ({
  url: `${gw.url}/api/runs/bench-run/tool-calls`,
  method: 'POST',
  headers: { authorization: `Bearer ${gw.token}`, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'echo_note', input: { path: 'notes.md' }, agentId: `a${i}` }),
});

async function gateway() {
  const gws = { before: await startGateway(builds.before), after: await startGateway(builds.after) };
  const answers = {};
  for (const [k, gw] of Object.entries(gws)) {
    const { url, ...init } = callOf(gw, 0);
    const body = await (await fetch(url, init)).json();
    answers[k] = { status: body.status, text: body.result?.content?.[0]?.text };
  }
  assertSameWork('before-after-gateway', answers);
  const rps = { before: [], after: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const k of r % 2 ? ['after', 'before'] : ['before', 'after']) {
      const res = await autocannon({ ...callOf(gws[k], r), connections: 16, duration: SECONDS });
      if (res.non2xx || res.errors) throw new Error(`${k}: ${res.non2xx} non-2xx answers, ${res.errors} errors`);
      rps[k].push(res.requests.average);
    }
  }
  for (const gw of Object.values(gws)) gw.child.kill('SIGTERM');
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { before: median(rps.before), after: median(rps.after), rounds: rps };
}

const d = await dispatch();
const g = await gateway();
const row = (n) => d.rows.find((r) => r.subject === n);
const pct = (x) => `${(x * 100).toFixed(1)}%`;
const lines = [
  `dispatch p50: before ${row('before').p50us.toFixed(2)} µs, after ${row('after').p50us.toFixed(2)} µs; calls/s after/before ${pct(row('after').ratioToAnchor)}`,
  `gateway echo_note calls/s (median of ${ROUNDS} interleaved rounds of ${SECONDS} s): before ${Math.round(g.before)}, after ${Math.round(g.after)}; after/before ${pct(g.after / g.before)}`,
];
console.log(lines.join('\n'));
writeDocSection(
  'before-after',
  `## before and after a refactor — dispatch and the gateway, same run

\`node bench/before-after/compare.mjs <before-checkout>\` loads both builds in one run: dispatch
(both cores in one process) and gateway calls of \`echo_note\` on SQLite (one process per build,
rounds interleaved, 16 connections); each pair gives the same answer before it is timed. ${machineLine()}

- ${lines.join('\n- ')}`,
);
