// Before `tsc -b`: a package whose compiled output lost files that tsc's incremental build info
// still counts as written is rebuilt whole (its build info removed). tsc -b trusts that info and
// would not write the missing files again. Two such cases:
// - the gateway built by an older layout, whose console build (Vite, emptyOutDir) wrote into
//   dist/console and deleted the gateway's own dist/console/*.js;
// - a public entry point (package.json `exports`) missing from dist.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packages = fileURLToPath(new URL('../packages/', import.meta.url));

function stale(dir) {
  if (existsSync(join(dir, 'dist/console/index.html'))) {
    rmSync(join(dir, 'dist/console'), { recursive: true, force: true });
    return 'its console was built into dist/console by an older layout';
  }
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const files = Object.values(manifest.exports ?? {}).flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e)));
  const missing = files.find((f) => f.startsWith('./dist/') && !existsSync(join(dir, f)));
  return missing && `${missing} is missing`;
}

for (const name of readdirSync(packages)) {
  const dir = join(packages, name);
  const info = join(dir, 'tsconfig.tsbuildinfo');
  if (!existsSync(info)) continue;
  const why = stale(dir);
  if (!why) continue;
  rmSync(info);
  console.log(`packages/${name}: rebuilt whole (${why})`);
}
