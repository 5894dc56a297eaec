// `npm run bench [-- NAME...]`: runs the named benchmarks (default: all), each in its own process.
import { readdirSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { benchRoot } from './lib/harness.mjs';

const all = readdirSync(benchRoot, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(benchRoot, d.name, 'run.mjs')))
  .map((d) => d.name);
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !all.includes(w));
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; available: ${all.join(', ')}`);
  process.exit(2);
}
let failed = 0;
for (const name of wanted.length ? wanted : all) {
  console.log(`\n=== bench/${name} ===`);
  const r = spawnSync(process.execPath, ['--expose-gc', join(benchRoot, name, 'run.mjs')], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
