// shell_exec overhead: running `true` through the whole executor (validation, parsing and
// classifying the command, policy, process group, bounded output, result) against child_process
// running the same, without and with the sandbox (bubblewrap plus resource limits) in the same
// run; then the memory a 1 GB stdout costs (measured in a separate process).
import { exec, spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Executor, Policy, ToolRegistry, textOf } from '../../packages/core/dist/index.js';
import { shellTools } from '../../packages/tools/dist/shell/index.js';
import { probeSandbox } from '../../packages/tools/dist/sandbox/probe.js';
import { WorkspaceGuard } from '../../packages/tools/dist/workspace/guard.js';
import { compare, machineLine, markdownTable, writeDocSection } from '../lib/harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const loadBefore = loadavg()[0];
const root = realpathSync(mkdtempSync(join(tmpdir(), 'tb-bench-shell-')));
const sandbox = await probeSandbox('bwrap');
if (!sandbox.ok)
  throw new Error(`the sandbox does not work here (${sandbox.reason}); this benchmark compares with and without it`);
// yolo: a command run with write_access (judged execute) runs at once, in the workspace profile.
const executorWith = (config) =>
  new Executor({
    registry: new ToolRegistry().registerAll(shellTools({ config })),
    policy: new Policy({ mode: 'yolo' }),
    workspace: new WorkspaceGuard({ roots: [root] }),
  });
const executor = executorWith({ sandbox: { mode: 'off' } });
const sandboxed = executorWith({ sandbox: { mode: 'required' } });

/** Spawns and waits until the process has exited and its pipes are closed, reading the output. */
function spawnAndWait(file, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}
const execTrue = () =>
  new Promise((resolve, reject) => exec('true', { cwd: root }, (err) => (err ? reject(err) : resolve())));

// Sanity: every subject really runs the command, confined as it says.
for (const [ex, input, profile] of [
  [executor, { command: 'true' }, 'none'],
  [sandboxed, { command: 'true' }, 'read-only'],
  [sandboxed, { command: 'true', write_access: true }, 'workspace-write'],
]) {
  const check = await ex.call({ tool: 'shell_exec', input });
  if (
    check.status !== 'success' ||
    textOf(check) !== '(no output)\n[exit code 0]' ||
    check.approvedBy !== 'auto' ||
    check.metadata.sandbox !== profile
  )
    throw new Error(`shell_exec returned ${JSON.stringify(check)}`);
}
if ((await spawnAndWait('bash', ['-c', 'true'])).code !== 0) throw new Error('bash -c true failed');

// Two phases in one run. The kernel tears a sandbox's namespaces down after its command exits, on
// its own time, so interleaving sandboxed subjects with the others would bill that work to them.
const plain = () => executor.call({ tool: 'shell_exec', input: { command: 'true' } });
const iterations = Number(process.env.BENCH_ITER ?? 1000);
/** Every subject ran `true` to exit code 0 with no output. */
const exitAnswer = (r) => {
  if (r === undefined) return 'exit 0, no output'; // exec resolves only on success
  if ('code' in r) return r.code === 0 && r.out === '' ? 'exit 0, no output' : `exit ${r.code}: ${r.out}`;
  return textOf(r) === '(no output)\n[exit code 0]' ? 'exit 0, no output' : textOf(r);
};
const result = await compare({
  name: 'shell',
  anchor: 'child_process spawn bash -c true',
  iterations,
  rounds: 10,
  warmup: 100,
  answer: exitAnswer,
  subjects: {
    'child_process spawn bash -c true': () => spawnAndWait('bash', ['-c', 'true']),
    'child_process spawn true (no shell)': () => spawnAndWait('true', []),
    'child_process exec true (sh -c)': execTrue,
    'toolbelt shell_exec (executor)': plain,
  },
});
const boxed = await compare({
  name: 'shell-sandbox',
  anchor: 'shell_exec, sandbox off',
  iterations: Math.ceil(iterations / 2),
  rounds: 10,
  warmup: 50,
  answer: exitAnswer,
  subjects: {
    'shell_exec, sandbox off': plain,
    'shell_exec sandboxed, a read (read-only)': () =>
      sandboxed.call({ tool: 'shell_exec', input: { command: 'true' } }),
    'shell_exec sandboxed, write_access (workspace)': () =>
      sandboxed.call({ tool: 'shell_exec', input: { command: 'true', write_access: true } }),
  },
});
await executor.close();
await sandboxed.close();
rmSync(root, { recursive: true, force: true });

function measureMemory(bytes) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', join(here, 'memory.mjs')], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, BENCH_BYTES: String(bytes) },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`memory.mjs exited with ${code}`)),
    );
  });
}
const small = await measureMemory(256 * 2 ** 20);
const mem = await measureMemory(2 ** 30);
console.log('\n1 GB stdout through shell_exec:', mem);

const row = (n) => result.rows.find((r) => r.subject === n);
const tb = row('toolbelt shell_exec (executor)');
const anchor = row('child_process spawn bash -c true');
const direct = row('child_process spawn true (no shell)');
const ratio = anchor.callsPerSec / tb.callsPerSec;
const boxRow = (n) => boxed.rows.find((r) => r.subject === n);
const off = boxRow('shell_exec, sandbox off');
const boxRead = boxRow('shell_exec sandboxed, a read (read-only)');
const boxWrite = boxRow('shell_exec sandboxed, write_access (workspace)');
const addedMs = (r) => (r.p50us - off.p50us) / 1000;
const meanAddedMs = (r) => 1000 / r.callsPerSec - 1000 / off.callsPerSec;
const worst = Math.max(addedMs(boxRead), addedMs(boxWrite));
const summary = [
  `Per-call time of shell_exec without the sandbox relative to spawning \`bash -c true\` directly: ${ratio.toFixed(2)}x by mean (calls/s), ${(tb.p50us / anchor.p50us).toFixed(2)}x by median (goal <= 1.3x): ${ratio <= 1.3 ? 'met' : 'NOT met'}; p50 overhead ${(tb.p50us - anchor.p50us).toFixed(0)} µs.`,
  `The sandbox (bubblewrap with fresh user, pid, network, IPC and UTS namespaces, its mounts, and the resource limits, set by \`ulimit\` in the command's own bash) adds ${addedMs(boxRead).toFixed(1)} ms per call at the median for a read (read-only profile) and ${addedMs(boxWrite).toFixed(1)} ms for a command with write access (workspace profile); by mean ${meanAddedMs(boxRead).toFixed(1)} and ${meanAddedMs(boxWrite).toFixed(1)} ms (goal <= 15 ms): ${worst <= 15 ? 'met' : 'NOT met'}.`,
  `Relative to spawning \`true\` with no shell at all: ${(direct.callsPerSec / tb.callsPerSec).toFixed(2)}x (the difference is mostly bash's own start-up).`,
  `1 GB of stdout (\`yes | head -c 1G\`) through the executor, with a listener on the streamed output: the process grew by ${(mem.peakRssMb - mem.baselineRssMb).toFixed(0)} MB during the call (goal < 100 MB): ${mem.peakRssMb - mem.baselineRssMb < 100 ? 'met' : 'NOT met'}. Peak RSS of the whole process ${mem.peakRssMb.toFixed(0)} MB, of which ${mem.baselineRssMb.toFixed(0)} MB is Node with core and the shell tools loaded before the call; the growth is the bash parser, loaded on the first call (compiled by V8's baseline WebAssembly compiler only, which saves ~40 MB), and read buffers and decoded chunks awaiting V8's next young-generation collection; it does not grow with the output (256 MB peaked at ${small.peakRssMb.toFixed(0)} MB). ${mem.seconds.toFixed(1)} s, the first 256 MiB also written to a temp file; the result keeps ${mem.resultChars.toLocaleString('en-US')} characters (head and tail), states all ${mem.stdoutBytes.toLocaleString('en-US')} bytes and names the file.`,
];
console.log(`\n${summary.join('\n')}`);

writeDocSection(
  'shell',
  `## shell — shell_exec overhead per call, and memory under 1 GB of output

\`shell_exec\` running \`true\` through the whole executor (validation, parsing and classifying the
command with tree-sitter-bash, policy, a new process group, bounded output buffers, the result),
against \`child_process\` running the same with no toolbelt around it: with \`sandbox.mode\` "off",
and in the sandbox (bubblewrap and the default limits) as a read and with \`write_access\`.
Calls one at a time; every subject waits for the exit and the pipes to close. ${machineLine()}
Spawning is sensitive to the machine's load (load average ${loadBefore.toFixed(1)} on ${cpus().length} CPUs at the start
of this run); the subjects are interleaved in rounds so that load hits them alike, and the median
ratio is the steadier figure. The sandboxed subjects run in a second phase of the same run, against
shell_exec with the sandbox off: the kernel tears a sandbox's namespaces down after its command has
exited, on its own time, and interleaved with the first phase that work would land on the subjects
that run next. On this 2-CPU virtual machine the first phase's ratio moves between runs: 1.25–1.39x
by median over four runs on 2026-11-23, when the code from before the sandbox and the saved output
measured 1.49x in the same hour (it had measured 1.12x on a quieter day).

${markdownTable(result)}

${markdownTable(boxed)}

${summary.map((s) => `- ${s}`).join('\n')}

Run: \`npm run build && node bench/shell/run.mjs\` (\`BENCH_ITER\` sets the number of calls).`,
  [
    {
      goal: 'shell_exec (sandbox off) <= 1.3x the time of child_process bash -c true',
      met: ratio <= 1.3,
      figure: `${ratio.toFixed(2)}x by mean, ${(tb.p50us / anchor.p50us).toFixed(2)}x by median`,
      why: 'parsing and classifying the command, the process group, output buffers: see the shell section',
    },
    {
      goal: 'the sandbox adds <= 15 ms per call (median)',
      met: worst <= 15,
      figure: `${addedMs(boxRead).toFixed(1)} ms (read), ${addedMs(boxWrite).toFixed(1)} ms (write access)`,
      why: "bubblewrap's namespaces and mounts",
    },
    {
      goal: '1 GB of stdout: the process grows < 100 MB',
      met: mem.peakRssMb - mem.baselineRssMb < 100,
      figure: `${(mem.peakRssMb - mem.baselineRssMb).toFixed(0)} MB`,
      why: 'the bash parser and read buffers awaiting GC',
    },
  ],
);
