// What stays read-only inside a root even for a command that may write there: the files git runs
// code from or takes its settings from (`.git/config`, `.git/hooks`, `.git/info/attributes`, and
// in a worktree the same files of the repository it belongs to). The `.git` directory itself is
// pinned (mounted over itself), so it cannot be renamed or replaced by a fresh one either; what is
// inside stays writable, so commits, fetches and checkouts work.
//
// Only what exists can be mounted over: a file that does not exist yet (say no
// `.git/info/attributes`) is not protected, and toolbelt never creates files in the workspace to
// make it so. toolbelt's own files (`toolbelt.config.json`, `.toolbelt/`) are hidden and read-only
// where they exist; one a command creates in a root is an untrusted workspace config, which takes
// effect only after the user runs `toolbelt trust` on it.
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { realOrSelf } from './system.js';

export interface GitProtection {
  /** `.git` directories in the roots, mounted over themselves. */
  pinned: string[];
  /** Existing files and directories mounted read-only over themselves. */
  readOnly: string[];
}

const GIT_OWN = ['config', 'config.worktree', 'hooks', join('info', 'attributes')];

/** The git directory of a root's `.git` (a directory, or a file saying `gitdir: …`), and its common directory. */
function gitDirs(root: string): { pinned?: string; dirs: string[] } {
  const dotGit = join(root, '.git');
  const st = lstatSync(dotGit, { throwIfNoEntry: false });
  if (!st) return { dirs: [] };
  if (st.isDirectory()) return { pinned: dotGit, dirs: [dotGit, ...common(dotGit)] };
  if (!st.isFile()) return { dirs: [] };
  const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
  if (!m) return { dirs: [] };
  const gitdir = resolve(root, m[1].trim());
  return { dirs: [gitdir, ...common(gitdir)] };
}

/** A worktree's or linked repository's common directory, from its `commondir` file. */
function common(gitdir: string): string[] {
  try {
    return [resolve(gitdir, readFileSync(join(gitdir, 'commondir'), 'utf8').trim())];
  } catch {
    return [];
  }
}

export function gitProtection(roots: readonly string[]): GitProtection {
  const pinned = new Set<string>();
  const readOnly = new Set<string>();
  for (const root of roots) {
    let found: ReturnType<typeof gitDirs>;
    try {
      found = gitDirs(root);
    } catch {
      continue;
    }
    if (found.pinned) pinned.add(realOrSelf(found.pinned));
    for (const dir of found.dirs)
      for (const own of GIT_OWN) if (existsSync(join(dir, own))) readOnly.add(realOrSelf(join(dir, own)));
  }
  return { pinned: [...pinned], readOnly: [...readOnly] };
}
