// `npm run install-global [-- NPM-OPTIONS]`: puts `toolbelt` on PATH from this clone, as
// `npm install --global @toolbelt/cli` will once the packages are published. Every workspace is
// packed with `npm pack`; in a temp copy of each tarball the @toolbelt/* dependencies point at
// their sibling tarballs (never at the registry); then npm installs the CLI's tarball globally, so
// npm lays it out as a published install would: one global package, @toolbelt/cli, with its
// dependencies inside it. The clone can be moved or deleted afterwards.
// NPM-OPTIONS go to `npm install --global` (e.g. `--prefix DIR`). `npm uninstall -g @toolbelt/cli` removes it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const npmOptions = process.argv.slice(2);

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...opts });
  if (r.error) throw r.error;
  if (r.status !== 0) {
    process.stderr.write(`${r.stdout ?? ''}${r.stderr ?? ''}`);
    throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status}`);
  }
  return r.stdout;
}

function manifestOf(name) {
  return JSON.parse(readFileSync(join(root, 'packages', name.replace('@toolbelt/', ''), 'package.json'), 'utf8'));
}

/** Packs the public workspaces into DIR; returns { name: tarball path }. */
function pack(dir) {
  const packs = join(dir, 'packs');
  mkdirSync(packs);
  const out = run('npm', ['pack', '--workspaces', '--ignore-scripts', '--json', '--pack-destination', packs]);
  const packed = JSON.parse(out).filter((p) => manifestOf(p.name).private !== true);
  return Object.fromEntries(packed.map((p) => [p.name, join(packs, p.filename)]));
}

/** A copy of each tarball whose @toolbelt/* dependencies are `file:` paths of the copies. */
function relink(dir, tarballs) {
  const local = Object.fromEntries(
    Object.keys(tarballs).map((name) => [name, join(dir, 'local', `${name.replace('@toolbelt/', 'toolbelt-')}.tgz`)]),
  );
  mkdirSync(join(dir, 'local'));
  for (const [name, tgz] of Object.entries(tarballs)) {
    const work = join(dir, 'unpack', name);
    mkdirSync(work, { recursive: true });
    run('tar', ['-xzf', tgz, '-C', work]);
    const file = join(work, 'package', 'package.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    for (const dep of Object.keys(manifest.dependencies ?? {})) {
      if (local[dep]) manifest.dependencies[dep] = `file:${local[dep]}`;
    }
    writeFileSync(file, JSON.stringify(manifest, null, 2) + '\n');
    run('tar', ['-czf', local[name], '-C', work, 'package']);
  }
  return local;
}

const missing = ['core', 'tools', 'gateway', 'cli'].filter((p) => !existsSync(join(root, 'packages', p, 'dist')));
if (missing.length) {
  console.error(
    `toolbelt is not built (${missing.map((p) => `packages/${p}/dist`).join(', ')} missing): run npm install (or npm run build) first`,
  );
  process.exit(1);
}
const dir = mkdtempSync(join(tmpdir(), 'toolbelt-install-'));
try {
  const local = relink(dir, pack(dir));
  console.log(
    `installing @toolbelt/cli ${manifestOf('@toolbelt/cli').version} globally${npmOptions.length ? ` (${npmOptions.join(' ')})` : ''}...`,
  );
  run('npm', ['install', '--global', '--no-audit', '--no-fund', ...npmOptions, local['@toolbelt/cli']], {
    stdio: 'inherit',
  });
  const prefix = run('npm', [
    'prefix',
    '--global',
    ...npmOptions.filter((o, i, all) => o.startsWith('--prefix') || all[i - 1] === '--prefix'),
  ]).trim();
  console.log(
    `toolbelt is installed: ${join(prefix, 'bin', 'toolbelt')} (npm uninstall --global @toolbelt/cli removes it)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
