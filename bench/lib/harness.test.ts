// The agreement check of side-by-side benches: a bench whose subjects do different work (here a
// deliberately broken one, which finds one line fewer) exits non-zero and writes nothing to the
// benchmarks document; the control, the same bench with agreeing subjects, writes its section.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const harness = join(import.meta.dirname, 'harness.mjs');
const runner = join(import.meta.dirname, '..', 'run.mjs');
const dir = mkdtempSync(join(tmpdir(), 'tb-bench-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A tiny bench; `broken` makes one subject skip a line. It writes its section and one goal. */
function benchScript(broken: boolean, section = 'agreement'): string {
  return `import { compare, writeDocSection } from ${JSON.stringify(harness)};
const lines = ['a.ts:1', 'a.ts:7', 'b.ts:3'];
await compare({
  name: 'agreement-${broken}',
  anchor: 'reference',
  iterations: 4, rounds: 2, warmup: 1,
  answer: (found) => new Set(found),
  subjects: {
    reference: async () => lines,
    subject: async () => (${broken} ? lines.slice(1) : [...lines].reverse()),
  },
});
writeDocSection('${section}', 'figures', [{ goal: 'the same lines', met: true, figure: '3 lines, 1.00x' }]);
`;
}

/** Runs the tiny bench in its own process, as `npm run bench` does. */
function runBench(broken: boolean) {
  const doc = join(dir, `benchmarks-${broken}.md`);
  const script = join(dir, `bench-${broken}.mjs`);
  writeFileSync(script, benchScript(broken));
  const r = spawnSync(process.execPath, [script], {
    encoding: 'utf8',
    env: { ...process.env, TOOLBELT_BENCH_DOC: doc },
  });
  return { status: r.status, stderr: r.stderr, doc };
}

describe('bench agreement check', () => {
  it('a subject that did different work fails the bench, naming the difference, and nothing is written', () => {
    const r = runBench(true);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(
      '"subject" did not do the same work as "reference": 3 vs 2 items; only in the first: a.ts:1; only in the second: none',
    );
    expect(existsSync(r.doc)).toBe(false);
  });

  it('control: subjects that agree (order aside) are timed and their section is written', () => {
    const r = runBench(false);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(readFileSync(r.doc, 'utf8')).toContain('<!-- bench:agreement -->\nfigures\n<!-- /bench:agreement -->');
  });
});

describe('npm run bench (bench/run.mjs)', () => {
  /** A folder of benches for run.mjs: each name's run.mjs is the tiny bench, broken or not. */
  function suite(benches: Record<string, boolean>) {
    const root = mkdtempSync(join(dir, 'suite-'));
    for (const [name, broken] of Object.entries(benches)) {
      mkdirSync(join(root, name));
      writeFileSync(join(root, name, 'run.mjs'), benchScript(broken, name));
    }
    const doc = join(root, 'benchmarks.md');
    writeFileSync(doc, '# Benchmarks\n\nwritten by hand\n');
    const r = spawnSync(process.execPath, [runner], {
      encoding: 'utf8',
      env: { ...process.env, TOOLBELT_BENCH_ROOT: root, TOOLBELT_BENCH_DOC: doc },
    });
    return { ...r, doc: readFileSync(doc, 'utf8') };
  }

  it('one bench whose subjects disagree fails the whole run, and the document stays as it was', () => {
    const r = suite({ a: false, b: true });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('"subject" did not do the same work as "reference"');
    expect(r.stderr).toContain('bench failed: b;');
    expect(r.doc).toBe('# Benchmarks\n\nwritten by hand\n');
  });

  it('control: when every bench agrees, the document gets their sections and a generated goal table', () => {
    const r = suite({ a: false, c: false });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('2 of 2 goals met');
    expect(r.doc).toContain('<!-- bench:c -->\nfigures\n<!-- /bench:c -->');
    expect(r.doc).toMatch(
      /\| a \| the same lines \| 3 lines, 1\.00x \| met \| {2}\| \d{4}-\d\d-\d\d \d\d:\d\d UTC, load [\d.]+ [\d.]+ [\d.]+ on \d+ cores \|/,
    );
  });
});
