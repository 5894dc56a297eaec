// Measures the corpus: classifies every command in mode `safe` terms (read or not), runs every
// read for real in the read-only sandbox under strace, and a fixed sample of the others, to find
// which of those only read ("harmless"). The share of harmless commands that run without asking
// is computed from the runs, never written down.
import { createHash } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { leaksOf } from '../../../../sandbox/__fixtures__/secret-scripts.js';
import type { Sandbox } from '../../../../sandbox/sandbox.js';
import { gitReadEnv } from '../../../env.js';
import { classifyCommand } from '../../classify.js';
import type { CorpusCommand } from './corpus.js';
import { judge, runJailed, type Verdict } from './jail.js';
import type { CorpusWorkspace } from './workspace.js';

export interface Ran {
  cmd: CorpusCommand;
  reason: string;
  verdict: Verdict;
  leaks: string[];
}

export interface Measurement {
  total: number;
  reads: Ran[];
  asked: number;
  sample: Ran[];
  /** Classification time per command, in ms, sorted: its first classification (history checks included). */
  classifyMs: number[];
  /** The same, the median of three classifications in a row: what a busy machine's pauses do not skew. */
  steadyMs: number[];
  /** The machine while it was measured: the 1-minute load average and the cores. */
  load: number;
  cores: number;
}

/** A run only read: no problem, no refused write, no secret shown, and its programs all there. */
export function harmless(r: Ran): boolean {
  return (
    r.verdict.problems.length === 0 &&
    r.verdict.refused.length === 0 &&
    r.leaks.length === 0 &&
    r.verdict.incomplete !== 'a program is missing'
  );
}

async function pool<T, R>(items: readonly T[], width: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return out;
}

/** The first `n` of `cmds` in an order fixed by their text's hash: the same sample every run. */
export function fixedSample(cmds: readonly CorpusCommand[], n: number): CorpusCommand[] {
  const key = (c: CorpusCommand) => createHash('sha1').update(c.command).digest('hex');
  return [...cmds].sort((a, b) => key(a).localeCompare(key(b))).slice(0, n);
}

export interface MeasureOptions {
  sandbox: Sandbox;
  space: CorpusWorkspace;
  /** How many of the asked commands to run. */
  sampleSize: number;
  /** Commands run at once. */
  width: number;
}

export async function measure(corpus: readonly CorpusCommand[], o: MeasureOptions): Promise<Measurement> {
  const { ws, home, markers } = o.space;
  const classifyEnv = { PATH: '/usr/bin:/bin', HOME: home, LANG: 'C' };
  const runEnv = gitReadEnv({ ...classifyEnv, TMPDIR: '/tmp' });
  const confined = await o.sandbox.confine({ roots: [ws], cwd: ws, readOnly: true, network: false });
  const classifyMs: number[] = [];
  const judged: { cmd: CorpusCommand; reason: string; read: boolean }[] = [];
  // Judged as shell_exec judges it where the sandbox works: reads are confined (read-only, no
  // network, secrets shown empty), so the classifier need not walk trees for secrets.
  const readsConfined = await o.sandbox.confinesReads([ws]);
  const opts = {
    cwd: ws,
    roots: [ws],
    home,
    env: classifyEnv,
    ...(readsConfined ? { readsConfined } : {}),
  };
  await classifyCommand('true', opts); // the parser loads once per process
  const steadyMs: number[] = [];
  const load = loadavg()[0];
  for (const cmd of corpus) {
    const times: number[] = [];
    let c: Awaited<ReturnType<typeof classifyCommand>> | undefined;
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      c = await classifyCommand(cmd.command, opts);
      times.push(performance.now() - t0);
    }
    classifyMs.push(times[0]);
    steadyMs.push(times.sort((a, b) => a - b)[1]);
    judged.push({ cmd, reason: c!.reason ?? c!.effect, read: c!.effect === 'read' });
  }
  const run = async (j: (typeof judged)[number]): Promise<Ran> => {
    const r = await runJailed(confined, j.cmd.command, runEnv, ws);
    return { cmd: j.cmd, reason: j.reason, verdict: judge(r, j.cmd.command, ws), leaks: leaksOf(markers, r.out) };
  };
  const asked = judged.filter((j) => !j.read);
  const sampled = new Set(
    fixedSample(
      asked.map((j) => j.cmd),
      o.sampleSize,
    ),
  );
  const reads = await pool(
    judged.filter((j) => j.read),
    o.width,
    run,
  );
  const sample = await pool(
    asked.filter((j) => sampled.has(j.cmd)),
    o.width,
    run,
  );
  return {
    total: corpus.length,
    reads,
    asked: asked.length,
    sample,
    classifyMs: classifyMs.sort((a, b) => a - b),
    steadyMs: steadyMs.sort((a, b) => a - b),
    load,
    cores: availableParallelism(),
  };
}
