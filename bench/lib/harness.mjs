// Side-by-side benchmarks: every subject runs in the same process and the same run as its
// anchor, interleaved in rounds so drift hits all of them alike; we report ratios, not just figures.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { goalRecord, withGoals } from './goals.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const benchRoot = join(here, '..');
export const repoRoot = join(here, '..', '..');

function percentile(sorted, q) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Times `fn` one call at a time; returns per-call nanoseconds. */
async function sample(fn, count) {
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const t0 = process.hrtime.bigint();
    await fn(i);
    out[i] = Number(process.hrtime.bigint() - t0);
  }
  return out;
}

/**
 * CPU milliseconds this process and its waited-for children have used (Linux /proc; undefined
 * elsewhere): on a shared machine wall time moves with the neighbours, CPU time much less.
 */
export function cpuMs() {
  try {
    const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 10;
  } catch {
    return undefined;
  }
}

/** Runs `count` calls with `concurrency` in flight; returns total wall nanoseconds. */
async function throughput(fn, count, concurrency) {
  if (concurrency === 1) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < count; i++) await fn(i);
    return Number(process.hrtime.bigint() - t0);
  }
  let next = 0;
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await fn(next++);
    }),
  );
  return Number(process.hrtime.bigint() - t0);
}

/** Set once any check found subjects doing different work: nothing is written to docs/benchmarks.md after that. */
let disagreed = false;

/** Subjects that did not do the same work: the bench stops (non-zero exit) and writes no figures. */
export class Disagreement extends Error {}

function canonical(value) {
  if (value instanceof Set) return canonical([...value].sort());
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

function describeDifference(a, b) {
  if (!(a instanceof Set) || !(b instanceof Set))
    return `${canonical(a).slice(0, 300)} vs ${canonical(b).slice(0, 300)}`;
  const onlyA = [...a].filter((x) => !b.has(x));
  const onlyB = [...b].filter((x) => !a.has(x));
  return `${a.size} vs ${b.size} items; only in the first: ${onlyA.slice(0, 5).join(', ') || 'none'}${onlyA.length > 5 ? ` (+${onlyA.length - 5})` : ''}; only in the second: ${onlyB.slice(0, 5).join(', ') || 'none'}${onlyB.length > 5 ? ` (+${onlyB.length - 5})` : ''}`;
}

/**
 * Checks that subjects did the same work: `answers` maps subject name to what it produced, made
 * comparable (a Set of matched lines, a count, a reply). Throws Disagreement naming the first one
 * that differs from the first subject, and blocks writeDocSection for the rest of the process.
 */
export function assertSameWork(name, answers) {
  const [first, ...rest] = Object.keys(answers);
  for (const other of rest) {
    if (canonical(answers[first]) === canonical(answers[other])) continue;
    disagreed = true;
    throw new Disagreement(
      `${name}: "${other}" did not do the same work as "${first}": ${describeDifference(answers[first], answers[other])}`,
    );
  }
}

/**
 * subjects: { name: async (i) => result }, the anchor among them. `answer(result, subject)` makes
 * a result comparable; each subject runs once first and all answers must be equal (assertSameWork).
 * Reports per subject: calls/s, p50/p99 per call (µs), and ratio of calls/s to the anchor.
 */
export async function compare({
  name,
  anchor,
  subjects,
  answer,
  iterations = 20000,
  rounds = 7,
  warmup = 5000,
  concurrency = 1,
}) {
  const names = Object.keys(subjects);
  if (!names.includes(anchor)) throw new Error(`anchor ${anchor} is not among the subjects`);
  if (typeof answer !== 'function')
    throw new Error(`${name}: compare() needs answer(result, subject), to check that the subjects did the same work`);
  const answers = {};
  for (const n of names) answers[n] = await answer(await subjects[n](0), n);
  assertSameWork(name, answers);
  for (const n of names) await sample(subjects[n], warmup);
  const lat = Object.fromEntries(names.map((n) => [n, []]));
  const wall = Object.fromEntries(names.map((n) => [n, []]));
  const cpu = Object.fromEntries(names.map((n) => [n, []]));
  const per = Math.max(1, Math.floor(iterations / rounds));
  for (let r = 0; r < rounds; r++) {
    for (const n of names) {
      // Throughput from a plain loop (no clock reads inside), latency from a separate timed pass.
      const cpu0 = cpuMs();
      wall[n].push(await throughput(subjects[n], per, concurrency));
      if (cpu0 !== undefined) cpu[n].push((cpuMs() - cpu0) / per);
      const s = await sample(subjects[n], Math.min(concurrency === 1 ? 5000 : 200, per));
      lat[n].push(...s);
    }
  }
  const rows = names.map((n) => {
    const sorted = Float64Array.from(lat[n]).sort();
    // The median round: robust against a GC pause or a neighbour's burst in one round.
    const roundNs = [...wall[n]].sort((a, b) => a - b)[Math.floor(wall[n].length / 2)];
    const callsPerSec = per / (roundNs / 1e9);
    const cpuMsPerCall = cpu[n].length ? [...cpu[n]].sort((a, b) => a - b)[Math.floor(cpu[n].length / 2)] : undefined;
    return {
      subject: n,
      callsPerSec,
      p50us: percentile(sorted, 0.5) / 1000,
      p99us: percentile(sorted, 0.99) / 1000,
      cpuMsPerCall,
    };
  });
  const base = rows.find((r) => r.subject === anchor);
  for (const r of rows) {
    r.ratioToAnchor = r.callsPerSec / base.callsPerSec;
    // CPU per call relative to the anchor's (1.10 = a tenth more CPU); median round of each.
    if (r.cpuMsPerCall !== undefined && base.cpuMsPerCall) r.cpuToAnchor = r.cpuMsPerCall / base.cpuMsPerCall;
  }
  return report({ name, anchor, concurrency, iterations: per * rounds, rows });
}

/** Prints a table, writes bench/results/NAME.json, returns the result object. */
export function report(result) {
  const out = { ...result, node: process.version, date: new Date().toISOString() };
  mkdirSync(join(benchRoot, 'results'), { recursive: true });
  writeFileSync(join(benchRoot, 'results', `${result.name}.json`), JSON.stringify(out, null, 2) + '\n');
  console.log(
    `\n${result.name}${result.concurrency > 1 ? ` (concurrency ${result.concurrency})` : ''} — anchor: ${result.anchor}`,
  );
  console.table(
    result.rows.map((r) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'number' ? Number(v.toPrecision(4)) : v])),
    ),
  );
  return out;
}

/** The document the benches write: docs/benchmarks.md, or TOOLBELT_BENCH_DOC (`npm run bench` writes a copy first). */
export const docFile = () => process.env.TOOLBELT_BENCH_DOC ?? join(repoRoot, 'docs', 'benchmarks.md');

/**
 * Replaces the section between <!-- bench:NAME --> markers in docs/benchmarks.md (adds it if absent),
 * and with `goals` (see goals.mjs: { goal, met, figure, why }) this bench's rows of the goal table.
 */
export function writeDocSection(name, markdown, goals) {
  if (disagreed) throw new Disagreement(`not writing the ${name} section: its subjects did not do the same work`);
  const file = docFile();
  const start = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  let doc = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const block = `${start}\n${markdown.trim()}\n${end}`;
  const i = doc.indexOf(start);
  const j = doc.indexOf(end);
  doc = i >= 0 && j > i ? doc.slice(0, i) + block + doc.slice(j + end.length) : `${doc.trimEnd()}\n\n${block}\n`;
  if (goals) doc = withGoals(doc, goalRecord(name, goals));
  writeFileSync(file, doc);
}

/** Markdown table of a compare() result. */
export function markdownTable(result, { unit = 'calls/s' } = {}) {
  const lines = [`| subject | ${unit} | p50 µs | p99 µs | ratio to ${result.anchor} |`, '|---|---:|---:|---:|---:|'];
  for (const r of result.rows) {
    lines.push(
      `| ${r.subject} | ${Math.round(r.callsPerSec).toLocaleString('en-US')} | ${r.p50us.toFixed(2)} | ${r.p99us.toFixed(2)} | ${r.ratioToAnchor.toFixed(2)}x |`,
    );
  }
  return lines.join('\n');
}

/** A warning when the machine was busier than its cores at the end of a run (wall-time ratios then mean little), else ''. */
export function busyNote() {
  const [load] = loadavg();
  const cores = availableParallelism();
  return load > cores
    ? ` (wall time unreliable in this run: load average ${load.toFixed(1)} on ${cores} cores; the CPU ratio is the steadier figure)`
    : '';
}

export function machineLine() {
  return `Node ${process.version}, ${process.platform}/${process.arch}, run ${new Date().toISOString().slice(0, 10)}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} at the end (${availableParallelism()} cores).`;
}
