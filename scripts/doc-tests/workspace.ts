// The temp workspace the doc blocks run in: a clone of this repository (what a new user has after
// `git clone`), a home of its own, and `toolbelt` on PATH as the built CLI (`npx toolbelt` too).
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = join(REPO, 'packages/cli/bin/toolbelt.js');

export interface DocWorkspace {
  dir: string;
  /** The clone the blocks run in (their cwd). */
  ws: string;
  home: string;
  /** Where TS blocks are written and compiled; its node_modules is the repository's. */
  code: string;
  env: NodeJS.ProcessEnv;
  dispose(): void;
}

/** Placeholders the docs use for paths, and what they stand for here. */
export function fillPaths(text: string, w: DocWorkspace): string {
  return text
    .replaceAll('/absolute/path/to/your/project', w.ws)
    .replaceAll('/path/to/your/project', w.ws)
    .replaceAll('/absolute/path/to/toolbelt', REPO.replace(/\/$/, ''))
    .replaceAll('/path/to/toolbelt', REPO.replace(/\/$/, ''));
}

function shims(bin: string): void {
  const npx = execFileSync('bash', ['-c', 'command -v npx'], { encoding: 'utf8' }).trim();
  writeFileSync(join(bin, 'toolbelt'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  // `npx toolbelt` in a clone resolves to the workspace's own bin; anything else is npx's business.
  writeFileSync(
    join(bin, 'npx'),
    `#!/bin/sh\nif [ "$1" = toolbelt ]; then shift; exec toolbelt "$@"; fi\nexec "${npx}" "$@"\n`,
  );
  chmodSync(join(bin, 'toolbelt'), 0o755);
  chmodSync(join(bin, 'npx'), 0o755);
}

export function createWorkspace(): DocWorkspace {
  const dir = mkdtempSync(join(tmpdir(), 'toolbelt-doc-'));
  const ws = join(dir, 'toolbelt');
  const home = join(dir, 'home');
  const bin = join(dir, 'bin');
  const code = join(dir, 'code');
  for (const d of [home, bin, code]) mkdirSync(d);
  execFileSync('git', ['clone', '-q', '--shared', '--no-tags', REPO, ws], { stdio: 'ignore' });
  execFileSync('git', ['-C', ws, 'config', 'user.email', 'docs@example.com']);
  execFileSync('git', ['-C', ws, 'config', 'user.name', 'doc tests']);
  symlinkSync(join(REPO, 'node_modules'), join(code, 'node_modules'));
  shims(bin);
  const env: NodeJS.ProcessEnv = {
    PATH: `${bin}:${process.env.PATH}`,
    HOME: home,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    TMPDIR: tmpdir(),
  };
  return { dir, ws, home, code, env, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
