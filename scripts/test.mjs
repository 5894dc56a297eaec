// `npm test`: vitest over every package, then plain closing lines: tests and test files passed and
// failed (scripts/test-summary.mjs). Exits 1 exactly when something failed. Arguments go to vitest.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { summarize } from './test-summary.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'toolbelt-test-'));
const out = join(dir, 'results.json');
const args = [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${out}`,
  ...process.argv.slice(2),
];
const started = Date.now();
const run = spawnSync('npx', args, { stdio: 'inherit', cwd: root });
let report;
try {
  report = JSON.parse(readFileSync(out, 'utf8'));
} catch {
  report = undefined;
}
rmSync(dir, { recursive: true, force: true });
const { lines, failed } = summarize(report, run.status, root);
console.log(`\n${lines.join('\n')}\nTook ${Math.round((Date.now() - started) / 1000)} s.`);
process.exit(failed ? 1 : 0);
