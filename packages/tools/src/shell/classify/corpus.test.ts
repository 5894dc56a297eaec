// A corpus of real shell commands (tldr-pages, a published one-liner collection: see
// __fixtures__/corpus/SOURCES.md), classified as in mode `safe`. Every command judged a read runs
// for real in the read-only sandbox under strace, in a workspace with planted secrets: it must not
// write outside its private /tmp, open a network socket, run a program other than its own or one
// from the workspace, or print a secret. A fixed sample of the commands that ask runs too, to
// measure how many harmless commands ask; `npm run corpus:report` prints the figures for
// docs/policy.md.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaksOf } from '../../sandbox/__fixtures__/secret-scripts.js';
import { sandboxWorks } from '../../sandbox/__fixtures__/available.js';
import { cleanupScratch } from '../../sandbox/__fixtures__/confined.js';
import { Sandbox } from '../../sandbox/sandbox.js';
import { sandboxSettings } from '../../sandbox/settings.js';
import { hasStrace } from './__fixtures__/watch.js';
import { loadCorpus } from './__fixtures__/corpus/corpus.js';
import { judge, runJailed } from './__fixtures__/corpus/jail.js';
import { measure } from './__fixtures__/corpus/measure.js';
import { figures, policySection } from './__fixtures__/corpus/report.js';
import { makeCorpusWorkspace, type CorpusWorkspace } from './__fixtures__/corpus/workspace.js';

const SAMPLE = Number(process.env.TOOLBELT_CORPUS_SAMPLE ?? 200);
const WIDTH = Number(process.env.TOOLBELT_CORPUS_WIDTH ?? 4);
const REPORT = process.env.TOOLBELT_CORPUS_REPORT;
const strace = hasStrace();
if (!strace && process.env.CI)
  throw new Error('strace is required for the shell corpus test in CI (.ci/run installs it)');

let space: CorpusWorkspace;
let sandbox: Sandbox;
beforeAll(() => {
  space = makeCorpusWorkspace();
  sandbox = new Sandbox(sandboxSettings(undefined, { env: { HOME: space.home } }), { homes: [space.homes] });
});
afterAll(cleanupScratch);

describe.skipIf(!strace || !sandboxWorks)('the shell corpus', () => {
  it('has a watcher that sees a foreign program, a program from the workspace, a refused write, a socket and a secret', async () => {
    writeFileSync(join(space.ws, 'tool.sh'), '#!/bin/sh\ntrue\n');
    chmodSync(join(space.ws, 'tool.sh'), 0o755);
    const c = await sandbox.confine({ roots: [space.ws], cwd: space.ws, readOnly: true, network: false });
    const env = { PATH: '/usr/bin:/bin', HOME: space.home, LANG: 'C' };
    const run = async (script: string, command = script) =>
      judge(await runJailed(c, script, env, space.ws), command, space.ws);
    expect((await run('ls; /usr/bin/id', 'ls')).problems.join()).toMatch(/ran \/usr\/bin\/id/);
    expect((await run('./tool.sh')).problems.join()).toMatch(/from the workspace/);
    expect((await run('touch fresh.txt')).refused.join()).toMatch(/fresh\.txt \(EROFS\)/);
    expect((await run('exec 3<>/dev/tcp/127.0.0.1/9 || true')).problems.join()).toMatch(/socket/);
    expect(await run('cat path/to/file | wc -l; git log --oneline')).toEqual({ problems: [], refused: [] });
    // The sandbox hides the secret; read directly, the detector sees it.
    const hidden = await runJailed(c, 'cat .env', env, space.ws);
    expect(leaksOf(space.markers, hidden.out)).toEqual([]);
    expect(leaksOf(space.markers, readFileSync(join(space.ws, '.env'), 'utf8'))).toEqual(['ws/.env']);
  }, 60_000);

  it(`every command judged a read only reads; a fixed sample of ${SAMPLE} that ask measures the asks`, async () => {
    const corpus = loadCorpus();
    expect(corpus.length).toBeGreaterThanOrEqual(1000);
    const m = await measure(corpus, { sandbox, space, sampleSize: SAMPLE, width: WIDTH });
    const f = figures(m);
    const bad = m.reads
      .filter((r) => r.verdict.problems.length || r.leaks.length)
      .map((r) => `${r.cmd.command}: ${[...r.verdict.problems, ...r.leaks].join('; ')}`);
    console.info(
      `shell corpus: ${f.total} commands, ${f.reads} reads ran (${f.readsRefused.length} had a write refused), ${f.asked} ask, ` +
        `${f.sampledHarmless} of ${f.sampled} sampled asks only read; ${(100 * f.share).toFixed(1)}% of harmless commands run without asking; ` +
        `classification p50 ${f.p50Ms.toFixed(2)} ms, p99 ${f.p99Ms.toFixed(2)} ms ` +
        `(median of three: p50 ${f.steadyP50Ms.toFixed(2)} ms, p99 ${f.steadyP99Ms.toFixed(2)} ms)`,
    );
    if (REPORT)
      writeFileSync(
        REPORT,
        policySection(f, new Date().toISOString().slice(0, 10)) + '\n' + JSON.stringify(f, null, 1),
      );
    expect(bad).toEqual([]);
    // Enough reads must really run, or the test proves little.
    expect(f.reads).toBeGreaterThan(200);
  }, 300_000);
});
