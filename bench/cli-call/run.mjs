// bench/cli-call: `toolbelt call read_file` end to end, as a person or a script runs it, against the
// floor for printing a file from a Node CLI: `cat FILE` plus a bare `node -e 0` (Node's start-up),
// each a whole process, run in the same rounds (interleaved, order rotated). Wall time per round
// (spawn to exit) and CPU of the process (from this process's waited-for children, /proc). Every
// round checks that toolbelt printed the file's text (after its line numbers are stripped) exactly
// as cat did. One more toolbelt call runs under --cpu-prof for where its CPU goes.
// Run after `npm run build`: node bench/cli-call/run.mjs
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertSameWork, busyNote, machineLine, report, repoRoot, writeDocSection } from '../lib/harness.mjs';
import { waitedChildrenMs } from '../lib/tree-cpu.mjs';
import { profileLine, summarizeProfile } from '../lib/cpu-profile.mjs';

const TOOLBELT = join(repoRoot, 'packages', 'cli', 'bin', 'toolbelt.js');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const GOAL = 1.2;

const dir = mkdtempSync(join(tmpdir(), 'toolbelt-bench-cli-call-'));
const confDir = mkdtempSync(join(tmpdir(), 'toolbelt-bench-cli-call-conf-'));
const profDir = mkdtempSync(join(tmpdir(), 'toolbelt-bench-cli-call-prof-'));
// The same 200-line source file (~9 KB) as bench/mcp.
writeFileSync(
  join(dir, 'sample.ts'),
  Array.from(
    { length: 200 },
    (_, i) => `export const value${i} = computeSomething(${i}, 'a string literal on line ${i}');`,
  ).join('\n') + '\n',
);
// The config from outside the workspace (--config), which needs no `toolbelt trust`.
const config = join(confDir, 'toolbelt.config.json');
writeFileSync(config, JSON.stringify({ mode: 'safe' }));

const toolbeltArgs = [
  TOOLBELT,
  'call',
  'read_file',
  '{"path":"sample.ts"}',
  '--root',
  dir,
  '--config',
  config,
  '--non-interactive',
];
const commands = {
  'toolbelt call read_file': [process.execPath, toolbeltArgs],
  'cat sample.ts': ['cat', ['sample.ts']],
  'node -e 0': [process.execPath, ['-e', '0']],
  // For reference, not in the anchor: one Node process that reads the file and prints it.
  'node -e readFileSync + write': [
    process.execPath,
    ['-e', "process.stdout.write(require('fs').readFileSync('sample.ts'))"],
  ],
};
const ANCHOR = 'cat + node -e 0';
const SUBJECT = 'toolbelt call read_file';

/** One whole process: { wallMs, cpuMs, out }; a failing command stops the bench. */
function runOnce(name, extraNodeArgs = []) {
  const [cmd, args] = commands[name];
  const cpu0 = waitedChildrenMs();
  const t0 = performance.now();
  const r = spawnSync(cmd, cmd === process.execPath ? [...extraNodeArgs, ...args] : args, {
    cwd: dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const wallMs = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${name} exited ${r.status}: ${r.stderr.slice(0, 300)}`);
  return { wallMs, cpuMs: waitedChildrenMs() - cpu0, out: r.stdout };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

function measure() {
  const names = Object.keys(commands);
  const wall = Object.fromEntries([...names, ANCHOR].map((n) => [n, []]));
  const cpu = Object.fromEntries([...names, ANCHOR].map((n) => [n, []]));
  for (const n of names) runOnce(n); // warm the page cache
  for (let r = 0; r < ROUNDS; r++) {
    const outs = {};
    for (const name of names.map((_, i) => names[(i + r) % names.length])) {
      const run = runOnce(name);
      wall[name].push(run.wallMs);
      cpu[name].push(run.cpuMs);
      outs[name] = run.out;
    }
    wall[ANCHOR].push(wall['cat sample.ts'][r] + wall['node -e 0'][r]);
    cpu[ANCHOR].push(cpu['cat sample.ts'][r] + cpu['node -e 0'][r]);
    // toolbelt numbers the lines ("  12\t..."): without the numbers it printed what cat printed.
    assertSameWork('cli-call', {
      'cat sample.ts': outs['cat sample.ts'],
      [SUBJECT]: outs[SUBJECT].replace(/^ *\d+\t/gm, ''),
      'node -e readFileSync + write': outs['node -e readFileSync + write'],
    });
  }
  const rows = [ANCHOR, ...names].map((subject) => ({
    subject,
    wallMs: median(wall[subject]),
    // CPU comes in clock ticks (10 ms) per process: the mean over the rounds, not the median, is exact.
    cpuMs: mean(cpu[subject]),
    // Paired: this subject's wall time over the anchor's in the same round, median of the rounds.
    wallToAnchor: median(wall[subject].map((w, i) => w / wall[ANCHOR][i])),
    cpuToAnchor: mean(cpu[subject]) / mean(cpu[ANCHOR]),
  }));
  return report({ name: 'cli-call', anchor: ANCHOR, concurrency: 1, iterations: ROUNDS, rows });
}

function table(result) {
  const lines = [
    '| subject | wall ms (median) | wall vs anchor (paired) | CPU ms (mean) | CPU vs anchor (of the means) |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const r of result.rows)
    lines.push(
      `| ${r.subject} | ${r.wallMs.toFixed(1)} | ${r.wallToAnchor.toFixed(2)}x | ${r.cpuMs.toFixed(1)} | ${r.cpuToAnchor.toFixed(2)}x |`,
    );
  return lines.join('\n');
}

try {
  const result = measure();
  runOnce(SUBJECT, ['--cpu-prof', `--cpu-prof-dir=${profDir}`]);
  const profile = summarizeProfile(profDir);
  const ours = result.rows.find((r) => r.subject === SUBJECT);
  const base = result.rows.find((r) => r.subject === ANCHOR);
  const node = result.rows.find((r) => r.subject === 'node -e 0');
  const met = ours.wallToAnchor <= GOAL;
  const why = `toolbelt takes ${(ours.cpuMs - node.cpuMs).toFixed(0)} ms CPU more than a bare Node start; one profiled call (self time${profile ? `, ${profile.totalMs.toFixed(0)} ms sampled` : ''}): ${profileLine(profile)}`;
  const markdown = [
    '## cli-call — `toolbelt call read_file` end to end vs `cat` plus Node start-up',
    '',
    '`toolbelt call read_file \'{"path":"sample.ts"}\' --root DIR --config FILE --non-interactive` on a',
    '200-line file (~9 KB), policy mode safe, execution log on, against the anchor: `cat sample.ts` plus',
    'a bare `node -e 0`, the least any Node CLI that prints a file can take. Every command is a whole',
    `process (spawn to exit); ${ROUNDS} rounds, interleaved, order rotated. The anchor's figure in a round is`,
    "the sum of its two processes' in that round; the wall ratio is the median of the rounds' paired ratios,",
    "the CPU ratio that of the means (the kernel gives a process's CPU in 10 ms ticks).",
    "CPU is user + system of the process and anything it waited for (/proc, this process's children).",
    "Every round checks that toolbelt's output without its line numbers is exactly cat's (and the",
    `reference one-process Node reader's). ${machineLine()}${busyNote()}`,
    '',
    table(result),
    '',
    `Goal: at most ${GOAL}x the anchor's wall time: ${met ? 'met' : 'NOT met'} (${ours.wallToAnchor.toFixed(2)}x; CPU ${ours.cpuToAnchor.toFixed(2)}x).`,
    '',
    `Where the time goes: ${why}.`,
    '',
    'Run: `npm run build && node bench/cli-call/run.mjs`.',
  ].join('\n');
  writeDocSection('cli-call', markdown, [
    {
      goal: `toolbelt call read_file end to end <= ${GOAL}x (cat FILE + node -e 0), wall time`,
      met,
      figure: `${ours.wallToAnchor.toFixed(2)}x (${ours.wallMs.toFixed(0)} vs ${base.wallMs.toFixed(0)} ms; CPU ${ours.cpuToAnchor.toFixed(2)}x)`,
      why,
    },
  ]);
  console.log(`\ngoal <= ${GOAL}x: ${met ? 'met' : 'NOT met'} (${ours.wallToAnchor.toFixed(2)}x)\n${why}`);
} finally {
  for (const d of [dir, confDir, profDir]) rmSync(d, { recursive: true, force: true });
}
