// Hard-linked trees for workspace/links.ts: a pnpm layout built by hand, exactly as pnpm 10 lays it
// out (checked against a real `pnpm install`: <store>/files/ab/<rest of the SHA-512 hex>, "-exec"
// for executables, node_modules/.modules.yaml naming the store, every file of
// node_modules/.pnpm/<pkg>@<version>/node_modules/<pkg> a hard link to its store file), and a
// `cp -al` copy; rg as the reference for what a search should return.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findRg } from '../../search/engine.js';

export const rgPath = findRg();

/** The store file name of `content` under `store` (pnpm: files/ab/cdef…, "-exec" for executables). */
export function storeName(store: string, content: string | Buffer, exec = false): string {
  const hex = createHash('sha512').update(content).digest('hex');
  return join(store, 'files', hex.slice(0, 2), `${hex.slice(2)}${exec ? '-exec' : ''}`);
}

export interface PnpmLayout {
  store: string;
  /** Files under node_modules/.pnpm, relative to the root, with their content. */
  files: Record<string, string>;
}

/**
 * node_modules in `root` for the packages given (name → file → content), hard-linked to a store in
 * `storeDir` (outside the root, as pnpm's default store is); `bin/*` files are executables.
 */
export function pnpmLayout(
  root: string,
  storeDir: string,
  packages: Record<string, Record<string, string>>,
): PnpmLayout {
  const store = join(storeDir, 'v10');
  const nodeModules = join(root, 'node_modules');
  mkdirSync(nodeModules, { recursive: true });
  writeFileSync(
    join(nodeModules, '.modules.yaml'),
    `${JSON.stringify({ layoutVersion: 5, storeDir: store, virtualStoreDir: '.pnpm' }, null, 2)}\n`,
  );
  const files: Record<string, string> = {};
  for (const [pkg, content] of Object.entries(packages)) {
    for (const [file, text] of Object.entries(content)) {
      const exec = file.startsWith('bin/');
      const inStore = storeName(store, text, exec);
      mkdirSync(dirname(inStore), { recursive: true });
      writeFileSync(inStore, text);
      if (exec) chmodSync(inStore, 0o755);
      const rel = join('node_modules', '.pnpm', `${pkg}@1.0.0`, 'node_modules', pkg, file);
      mkdirSync(dirname(join(root, rel)), { recursive: true });
      linkSync(inStore, join(root, rel));
      files[rel] = text;
    }
  }
  return { store, files };
}

/** `cp -al src dest`: a copy whose every file is a hard link to the source's. */
export function copyLinked(src: string, dest: string): void {
  execFileSync('cp', ['-al', src, dest]);
}

/** Files rg finds holding `pattern` under `dir` (hidden and ignored ones too), relative and sorted. */
export function rgFiles(dir: string, pattern: string): string[] {
  if (!rgPath) throw new Error('rg is needed as the reference');
  const out = execFileSync(rgPath, ['--no-config', '--hidden', '--no-ignore', '-l', '-e', pattern, '.'], {
    cwd: dir,
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter(Boolean)
    .map((p) => p.replace(/^\.\//, ''))
    .sort();
}

/** Every file rg lists under `dir` (hidden and ignored ones too), relative and sorted. */
export function rgList(dir: string): string[] {
  if (!rgPath) throw new Error('rg is needed as the reference');
  const out = execFileSync(rgPath, ['--no-config', '--hidden', '--no-ignore', '--files', '.'], {
    cwd: dir,
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter(Boolean)
    .map((p) => p.replace(/^\.\//, ''))
    .sort();
}
