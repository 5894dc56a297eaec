// A cheap stamp of what a repository's history is made of: the files under its .git directory
// that name commits (HEAD, refs, packed-refs, reflogs, the index, grafts, shallow, other
// worktrees' HEADs and logs), by inode, size and times. The history check's own key asks git
// (show-ref, rev-list --reflog: two processes, ~5 ms each, on every patch-printing git read); it
// is computed again only when this stamp moved. A ref update writes a new file (a new inode) and
// appends to a reflog; anything else that changes these files changes their ctime, which no
// program can set. Times are coarse (a few ms on most file systems), so a stamp whose newest file
// changed within the last second is not trusted: git is asked, as before.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, type BigIntStats } from 'node:fs';
import { dirname, join } from 'node:path';

const PARTS = ['HEAD', 'packed-refs', 'index', 'refs', 'logs', 'info', 'shallow', 'worktrees', 'commondir'];
const MAX_ENTRIES = 20_000;
const SETTLED_NS = 1_000_000_000n;

/** The .git directory of the repository at `cwd` (or `gitDir` itself); undefined for a .git file (a linked worktree or submodule). */
export function dotGitOf(cwd: string, gitDir?: string): string | undefined {
  const isDir = (p: string) => {
    try {
      return lstatSync(p).isDirectory();
    } catch {
      return undefined;
    }
  };
  if (gitDir) return isDir(gitDir) ? gitDir : undefined;
  for (let d = cwd; ; d = dirname(d)) {
    const found = isDir(join(d, '.git'));
    if (found !== undefined) return found ? join(d, '.git') : undefined;
    if (dirname(d) === d) return undefined;
  }
}

/** The stamp, or undefined when it cannot be trusted (too many entries, or a change within the last second). */
export function historyStamp(dotGit: string, nowNs: bigint = BigInt(Date.now()) * 1_000_000n): string | undefined {
  const hash = createHash('sha256');
  let entries = 0;
  let newest = 0n;
  const add = (path: string): boolean => {
    let st: BigIntStats;
    try {
      st = lstatSync(path, { bigint: true });
    } catch {
      hash.update(`${path}\0-\n`);
      return true;
    }
    if (++entries > MAX_ENTRIES) return false;
    newest = [st.mtimeNs, st.ctimeNs, newest].reduce((a, b) => (a > b ? a : b));
    hash.update(`${path}\0${st.ino}\0${st.size}\0${st.mtimeNs}\0${st.ctimeNs}\n`);
    if (!st.isDirectory()) return true;
    let names: string[];
    try {
      names = readdirSync(path).sort();
    } catch {
      return false;
    }
    return names.every((name) => add(join(path, name)));
  };
  if (!PARTS.every((part) => add(join(dotGit, part)))) return undefined;
  return nowNs - newest < SETTLED_NS ? undefined : hash.digest('hex');
}
