// The agreement check of side-by-side benches: a bench whose subjects do different work (here a
// deliberately broken one, which finds one line fewer) exits non-zero and writes nothing to the
// benchmarks document; the control, the same bench with agreeing subjects, writes its section.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const harness = join(import.meta.dirname, 'harness.mjs');
const dir = mkdtempSync(join(tmpdir(), 'tb-bench-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a tiny bench in its own process, as `npm run bench` does; `broken` makes one subject skip a line. */
function runBench(broken: boolean) {
  const doc = join(dir, `benchmarks-${broken}.md`);
  const script = join(dir, `bench-${broken}.mjs`);
  writeFileSync(
    script,
    `import { compare, writeDocSection } from ${JSON.stringify(harness)};
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
writeDocSection('agreement', 'figures');
`,
  );
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
