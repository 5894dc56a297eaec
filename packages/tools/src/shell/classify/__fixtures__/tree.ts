// A workspace for the safety tables: ordinary files, secrets, toolbelt's config, and git
// repositories whose own config or hooks would run programs.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SafetyTree {
  root: string;
  /** A directory beside the root: outside the workspace. */
  outside: string;
  home: string;
  remove(): void;
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], { cwd, stdio: 'ignore' });
}

export function makeSafetyTree(): SafetyTree {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'tb-safety-')));
  const root = join(base, 'ws');
  const outside = join(base, 'outside');
  const home = join(base, 'home');
  for (const d of [root, outside, home, join(root, 'dir'), join(root, 'keys'), join(root, 'repo')]) mkdirSync(d, { recursive: true });
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
  git(join(root, 'evil'), 'config', 'core.fsmonitor', 'touch pwned');
  return { root, outside, home, remove: () => rmSync(base, { recursive: true, force: true }) };
}
