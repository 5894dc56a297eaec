// `npm run bench [-- NAME...]`: runs the named benchmarks (default: all), each in its own process,
// writing to a copy of docs/benchmarks.md. The copy replaces the document only when every bench
// passed: one whose subjects did different work (or that failed otherwise) exits non-zero, and then
// nothing is written, so the document never mixes figures of a failed run with older ones. A full
// run clears the goal table first: every row of it then comes from this run.
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchRoot, docFile } from './lib/harness.mjs';
import { goalsIn, withoutGoals } from './lib/goals.mjs';

// TOOLBELT_BENCH_ROOT: another folder of benches (the harness test runs a broken one).
const root = process.env.TOOLBELT_BENCH_ROOT ?? benchRoot;
const all = readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(root, d.name, 'run.mjs')))
  .map((d) => d.name)
  .sort();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !all.includes(w));
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; available: ${all.join(', ')}`);
  process.exit(2);
}

const target = docFile();
const work = mkdtempSync(join(tmpdir(), 'toolbelt-bench-doc-'));
const draft = join(work, 'benchmarks.md');
const original = existsSync(target) ? readFileSync(target, 'utf8') : '# Benchmarks\n';
writeFileSync(draft, wanted.length ? original : withoutGoals(original));

const failed = [];
try {
  for (const name of wanted.length ? wanted : all) {
    console.log(`\n=== bench/${name} ===`);
    const r = spawnSync(process.execPath, ['--expose-gc', join(root, name, 'run.mjs')], {
      stdio: 'inherit',
      env: { ...process.env, TOOLBELT_BENCH_DOC: draft },
    });
    if (r.status !== 0) failed.push(name);
  }
  if (failed.length) {
    console.error(`\nbench failed: ${failed.join(', ')}; ${target} is unchanged.`);
    process.exitCode = 1;
  } else {
    copyFileSync(draft, target);
    const goals = goalsIn(readFileSync(draft, 'utf8'));
    const missed = goals.filter((g) => !g.met);
    console.log(`\n${target} written: ${goals.length - missed.length} of ${goals.length} goals met.`);
    for (const g of missed) console.log(`  not met: ${g.bench}: ${g.goal} (${g.figure})`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
