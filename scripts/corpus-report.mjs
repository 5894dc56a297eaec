#!/usr/bin/env node
// Measures the shell corpus (packages/tools/src/shell/classify/corpus.test.ts) and prints the
// share of harmless commands that run without asking in mode `safe`, and why the others asked,
// grouped by the classifier's first reason. With --write it also puts the section into
// docs/policy.md ("## Reads in practice", before "## Sandbox"). TOOLBELT_CORPUS_SAMPLE sets how
// many of the asked commands run (default: all of them).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'tb-corpus-report-'));
const out = join(dir, 'report.md');
const run = spawnSync('npx', ['vitest', 'run', 'packages/tools/src/shell/classify/corpus.test.ts'], {
  stdio: ['ignore', 'inherit', 'inherit'],
  env: { TOOLBELT_CORPUS_SAMPLE: '100000', ...process.env, TOOLBELT_CORPUS_REPORT: out },
});
let text;
try {
  text = readFileSync(out, 'utf8');
} catch {
  console.error(
    `corpus:report: the corpus test wrote no report (exit ${run.status}); is strace installed and the sandbox working?`,
  );
  process.exit(1);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const cut = text.indexOf('\n{');
const section = text.slice(0, cut);
const figures = JSON.parse(text.slice(cut + 1));
console.log(`\n${section}`);
console.log(
  `Classification: p50 ${figures.p50Ms.toFixed(2)} ms, p99 ${figures.p99Ms.toFixed(2)} ms (first time); ` +
    `median of three: p50 ${figures.steadyP50Ms.toFixed(2)} ms, p99 ${figures.steadyP99Ms.toFixed(2)} ms ` +
    `(${figures.cores} cores, load average ${figures.load.toFixed(1)})`,
);
console.log('All groups of harmless asked commands in the sample:');
for (const g of figures.groups) console.log(`${String(g.count).padStart(4)}  ${g.why}  e.g. ${g.examples.join(' | ')}`);
if (process.argv.includes('--write')) {
  const path = 'docs/policy.md';
  const doc = readFileSync(path, 'utf8');
  const start = doc.indexOf('## Reads in practice');
  const sandbox = doc.indexOf('## Sandbox');
  const next = start >= 0 ? start : sandbox;
  const end = start >= 0 ? doc.indexOf('\n## ', start + 1) + 1 : sandbox;
  writeFileSync(path, doc.slice(0, next) + section + '\n' + doc.slice(end));
  console.log(`\nwrote the section into ${path}`);
}
process.exit(run.status ?? 1);
