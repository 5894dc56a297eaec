// Where a repository's git directory is: `.git` itself, or the directory a `.git` file (a linked
// worktree, a submodule) points at.
import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export function gitDirOf(dotGit: string): string | undefined {
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
    return m ? resolve(dirname(dotGit), m[1]) : undefined;
  } catch {
    return undefined;
  }
}
