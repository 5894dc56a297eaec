// The directory walk shared by glob, the JS grep engine and list_directory. Synchronous readdir is
// the fastest way to list a tree in Node; the walk yields to the event loop every few directories
// so timeouts and other calls keep running, and stops when its signal aborts.
// Only regular files and directories are walked: a symlink is never followed (its target may be
// outside the roots: `procroot -> /proc/self/root`), and named pipes, sockets and devices are never
// handed on. The entries are only listed here, never opened.
import { lstatSync, readdirSync, type Dirent } from 'node:fs';
import { ancestorLevels, IGNORE_FILES, levelFor, type Level, type SearchFilter } from './filters.js';

export interface WalkOptions {
  /** Real absolute path of the directory to walk. */
  root: string;
  filter: SearchFilter;
  signal?: AbortSignal;
  /** Each file that passes the filter, with its path relative to root (`/`-separated). Return false to stop. */
  onFile(abs: string, rel: string): boolean | void;
  /** Each symlink or special file met (before any filter), which the walk skips. Return false to stop. */
  onOther?(abs: string, rel: string, name: string): boolean | void;
  /** Directories per turn of the event loop. Default 64. */
  batch?: number;
}

export interface WalkStats {
  files: number;
  dirs: number;
  stopped: boolean;
}

const MARKERS = new Set<string>([IGNORE_FILES.custom, IGNORE_FILES.dot, IGNORE_FILES.git, '.git']);

/** The ignore level for the walk's root: its own ignore files over those of every directory above it. */
export function rootLevel(root: string, filter: SearchFilter, entries: Dirent[]): Level | undefined {
  if (!filter.ignoreFiles) return undefined;
  const parent = ancestorLevels(root);
  const names = new Set(entries.filter((e) => MARKERS.has(e.name)).map((e) => e.name));
  return levelFor(root, (n) => names.has(n), parent) ?? parent;
}

function list(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    // Unreadable or vanished directories are skipped, as rg does.
    return [];
  }
}

function kindOf(e: Dirent, abs: string): 'file' | 'dir' | 'other' {
  if (e.isFile()) return 'file';
  if (e.isDirectory()) return 'dir';
  if (e.isSymbolicLink() || e.isFIFO() || e.isSocket() || e.isBlockDevice() || e.isCharacterDevice()) return 'other';
  // Some file systems do not report entry types; ask.
  try {
    const st = lstatSync(abs);
    return st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'other';
  } catch {
    return 'other';
  }
}

export async function walk(opts: WalkOptions): Promise<WalkStats> {
  const { root, filter } = opts;
  const batch = opts.batch ?? 64;
  const stats: WalkStats = { files: 0, dirs: 0, stopped: false };
  const first = list(root);
  const stack: { dir: string; rel: string; level: Level | undefined; entries?: Dirent[] }[] = [
    { dir: root, rel: '', level: rootLevel(root, filter, first), entries: first },
  ];
  let turns = 0;
  while (stack.length) {
    if (++turns % batch === 0) {
      await new Promise((r) => setImmediate(r));
      if (opts.signal?.aborted) {
        stats.stopped = true;
        return stats;
      }
    }
    const { dir, rel, level: parentLevel, entries: given } = stack.pop()!;
    const entries = given ?? list(dir);
    let level = parentLevel;
    if (filter.ignoreFiles && rel !== '') {
      let marked = false;
      for (const e of entries) if (MARKERS.has(e.name)) marked = true;
      if (marked) {
        const names = new Set(entries.map((e) => e.name));
        level = levelFor(dir, (n) => names.has(n), parentLevel) ?? parentLevel;
      }
    }
    stats.dirs++;
    const prefix = dir === '/' ? '/' : `${dir}/`;
    for (const e of entries) {
      const abs = prefix + e.name;
      const kind = kindOf(e, abs);
      const childRel = rel === '' ? e.name : `${rel}/${e.name}`;
      if (kind === 'other') {
        if (opts.onOther?.(abs, childRel, e.name) === false) {
          stats.stopped = true;
          return stats;
        }
        continue;
      }
      if (!filter.includes(childRel, e.name, abs, kind === 'dir', level)) continue;
      if (kind === 'dir') {
        stack.push({ dir: abs, rel: childRel, level });
        continue;
      }
      stats.files++;
      if (opts.onFile(abs, childRel) === false) {
        stats.stopped = true;
        return stats;
      }
    }
  }
  return stats;
}
