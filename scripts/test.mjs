// `npm test`: vitest over every package, then one plain closing line ("Tests: N passed, N failed").
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'toolbelt-test-'));
const out = join(dir, 'results.json');
const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...process.argv.slice(2)];
const run = spawnSync('npx', args, { stdio: 'inherit' });
let summary;
try {
  const r = JSON.parse(readFileSync(out, 'utf8'));
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  summary = `Tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`;
} catch {
  summary = 'Tests: 0 passed, 1 failed (vitest wrote no results)';
}
rmSync(dir, { recursive: true, force: true });
console.log(`\n${summary}`);
process.exit(run.status ?? 1);
