// A workspace for the safety tables: ordinary files, secrets, toolbelt's config, and git
// repositories whose own config or hooks would run programs.
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SafetyTree {
  root: string;
  /** A directory beside the root: outside the workspace. */
  outside: string;
  home: string;
  /** In the repository `objects`: a secret no ref reaches (see below). */
  objects: { blob: string; tree: string; commit: string };
  remove(): void;
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'user.name=t', '-c', 'user.email=t@x', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'ignore'],
  }).trim();
}

/**
 * A clean repository whose history holds no secret, but whose object store does: a `.env` blob
 * written and never committed, a tree and a commit holding it that no ref reaches (its hash also in
 * ORIG_HEAD), and a tag pointing at the blob.
 */
function objectsRepo(dir: string): SafetyTree['objects'] {
  mkdirSync(dir);
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'a.txt'), 'a\n');
  git(dir, 'add', 'a.txt');
  git(dir, 'commit', '-qm', 'a');
  git(dir, 'tag', '-a', '-m', 'v1', 'v1');
  writeFileSync(join(dir, '.env'), 'API_KEY=secret\n');
  const blob = git(dir, 'hash-object', '-w', '.env');
  git(dir, 'update-index', '--add', '.env');
  const withSecret = git(dir, 'write-tree');
  git(dir, 'rm', '-q', '--cached', '.env');
  const commit = git(dir, 'commit-tree', withSecret, '-m', 'dangling');
  git(dir, 'tag', 'blobtag', blob);
  writeFileSync(join(dir, '.git', 'ORIG_HEAD'), `${commit}\n`);
  rmSync(join(dir, '.env'));
  return { blob, tree: withSecret, commit };
}

/**
 * What the recursive readers meet: `proj/`, a repository with ignored packages (a key among their
 * files), toolbelt's own `.toolbelt/`, an untracked `.env`; `pkgs/*` for loops; `spaced/` with a
 * name xargs would split; `hard/` with a file of two names.
 */
function readersTree(root: string): void {
  const proj = join(root, 'proj');
  for (const d of ['src', 'node_modules/pkg/test', '.toolbelt']) mkdirSync(join(proj, d), { recursive: true });
  git(proj, 'init', '-q');
  writeFileSync(join(proj, '.gitignore'), 'node_modules/\n.toolbelt/\n');
  writeFileSync(join(proj, 'src', 'a.ts'), 'export const x = 1;\n');
  git(proj, 'add', '.');
  git(proj, 'commit', '-qm', 'a');
  writeFileSync(join(proj, 'node_modules', 'pkg', 'package.json'), '{"name":"pkg"}\n');
  writeFileSync(join(proj, 'node_modules', 'pkg', 'test', 'key.pem'), 'KEY\n');
  writeFileSync(join(proj, '.toolbelt', 'approvals.json'), '{}\n');
  writeFileSync(join(proj, '.env'), 'API_KEY=secret\n');
  for (const p of ['a', 'b']) {
    mkdirSync(join(root, 'pkgs', p), { recursive: true });
    writeFileSync(join(root, 'pkgs', p, 'package.json'), `{"name":"${p}"}\n`);
  }
  mkdirSync(join(root, 'spaced'));
  writeFileSync(join(root, 'spaced', 'a b.txt'), 'x\n');
  mkdirSync(join(root, 'hard'));
  writeFileSync(join(root, 'hard', 'a.txt'), 'x\n');
  linkSync(join(root, 'hard', 'a.txt'), join(root, 'hard', 'b.txt'));
}

export function makeSafetyTree(): SafetyTree {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'tb-safety-')));
  const root = join(base, 'ws');
  const outside = join(base, 'outside');
  const home = join(base, 'home');
  for (const d of [root, outside, home, join(root, 'dir'), join(root, 'keys'), join(root, 'repo')])
    mkdirSync(d, { recursive: true });
  const files: Record<string, string> = {
    'a.txt': 'alpha\n',
    'b.txt': 'beta\n',
    'package.json': '{"name":"x"}\n',
    '.env': 'API_KEY=secret\n',
    'toolbelt.config.json': '{"mode":"safe"}\n',
    'dir/a.txt': 'x\n',
    'keys/server.pem': 'KEY\n',
    'script.sed': 's/a/b/\n',
    'prog.awk': '{print}\n',
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  writeFileSync(join(outside, 'secret.txt'), 'outside\n');

  // A clean repository.
  git(join(root, 'repo'), 'init', '-q');
  writeFileSync(join(root, 'repo', 'a.txt'), 'a\n');
  git(join(root, 'repo'), 'add', 'a.txt');
  git(join(root, 'repo'), '-c', 'user.name=t', '-c', 'user.email=t@x', 'commit', '-qm', 'a');

  // A repository whose config names programs, one with a hook, and a bare one not named .git.
  for (const name of ['monitored', 'filtered', 'hooked', 'textconv']) {
    mkdirSync(join(root, name));
    git(join(root, name), 'init', '-q');
  }
  git(join(root, 'monitored'), 'config', 'core.fsmonitor', 'touch pwned');
  git(join(root, 'filtered'), 'config', 'filter.evil.clean', 'touch pwned');
  writeFileSync(join(root, 'filtered', '.gitattributes'), '* filter=evil\n');
  git(join(root, 'textconv'), 'config', 'diff.evil.textconv', 'touch pwned; cat');
  writeFileSync(join(root, 'hooked', '.git', 'hooks', 'pre-commit'), '#!/bin/sh\ntouch pwned\n', { mode: 0o755 });
  git(root, 'init', '-q', '--bare', 'evil');

  // A clean repository whose history holds a secret: .env committed, then deleted.
  const leaky = join(root, 'leaky');
  mkdirSync(leaky);
  git(leaky, 'init', '-q');
  writeFileSync(join(leaky, '.env'), 'API_KEY=secret\n');
  writeFileSync(join(leaky, 'a.txt'), 'a\n');
  git(leaky, 'add', '.');
  git(leaky, '-c', 'user.name=t', '-c', 'user.email=t@x', 'commit', '-qm', 'a');
  git(leaky, 'rm', '-q', '.env');
  git(leaky, '-c', 'user.name=t', '-c', 'user.email=t@x', 'commit', '-qm', 'b');
  // Files named like options, and a link to a directory outside.
  mkdirSync(join(root, 'dashes'));
  writeFileSync(join(root, 'dashes', '--pre=sh'), '');
  writeFileSync(join(root, 'dashes', '--files0-from=.env'), '');
  writeFileSync(join(root, 'dashes', 'plain.txt'), 'x\n');
  mkdirSync(join(outside, 'etc'));
  writeFileSync(join(outside, 'etc', 'shadow'), 'root:x\n');
  symlinkSync(join(outside, 'etc'), join(root, 'elink'));
  // A clean repository with an untracked .env at its top and a subdirectory to run git from.
  const magic = join(root, 'magic');
  mkdirSync(join(magic, 'sub'), { recursive: true });
  git(magic, 'init', '-q');
  writeFileSync(join(magic, 'sub', 'a.txt'), 'a\n');
  git(magic, 'add', '.');
  git(magic, '-c', 'user.name=t', '-c', 'user.email=t@x', 'commit', '-qm', 'a');
  writeFileSync(join(magic, '.env'), 'API_KEY=secret\n');
  git(join(root, 'evil'), 'config', 'core.fsmonitor', 'touch pwned');
  const objects = objectsRepo(join(root, 'objects'));
  // A clean repository where a.txt's blob is replaced by a .env's.
  const replaced = join(root, 'replaced');
  mkdirSync(replaced);
  git(replaced, 'init', '-q');
  writeFileSync(join(replaced, 'a.txt'), 'a\n');
  git(replaced, 'add', 'a.txt');
  git(replaced, 'commit', '-qm', 'a');
  writeFileSync(join(replaced, 'secret'), 'API_KEY=secret\n');
  git(
    replaced,
    'replace',
    '-f',
    git(replaced, 'rev-parse', 'HEAD:a.txt'),
    git(replaced, 'hash-object', '-w', 'secret'),
  );
  rmSync(join(replaced, 'secret'));
  readersTree(root);
  return { root, outside, home, objects, remove: () => rmSync(base, { recursive: true, force: true }) };
}
