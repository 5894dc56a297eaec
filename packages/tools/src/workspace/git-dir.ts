// Where a repository's git directory is: `.git` itself, or the directory a `.git` file (a linked
// worktree, a submodule) points at.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export function gitDirOf(dotGit: string): string | undefined {
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
    return m ? resolve(dirname(dotGit), m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** The nearest directory at or above `dir` that holds a `.git`, found on disk (not by git). */
export function dotGitAbove(dir: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return undefined;
  }
}
