// Finds the files in the workspace roots that hold secrets by their name (the rules of
// workspace/sensitive.ts: .env, private keys, credentials, toolbelt's own files…), so that every
// sandbox shows them empty. The roots are walked breadth first (shallow files first: that is where
// .env files live), skipping only what version control and package managers wrote. Symbolic links
// are not followed; one that points at a secret (or is named like one) hides its target.
//
// Walked once, then kept: a directory is read again only when it changed (its inode, mtime or ctime;
// ctime cannot be set back by a command), so a later call costs one stat per directory. A walk stops
// after a budget of entries or time; the result then says so (`complete: false`), hides what was
// found so far, and the next call goes on from the cache.
import { lstatSync, readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { secretDirName, sensitiveMatch } from '../workspace/sensitive.js';
import type { HiddenPath } from './bwrap.js';

export interface ScanBudget {
  /** Directory entries read per call (a directory unchanged since last time costs only a stat and time). */
  entries: number;
  /** Milliseconds per call. */
  ms: number;
}

const SCAN_BUDGET_DEFAULT: ScanBudget = { entries: 200_000, ms: 3_000 };

export interface ScanResult {
  /** Secret files and directories found (real paths that exist). */
  hidden: HiddenPath[];
  /** Every directory under the roots was looked at. */
  complete: boolean;
  /** Entries read in this call. */
  seen: number;
}

interface DirState {
  stamp: string;
  secrets: HiddenPath[];
  subdirs: string[];
}

/**
 * Directories whose entries version control or a package manager wrote, never the user: git's
 * internals, and installed packages (node_modules, Python's site-packages), where `*.pem` and
 * `*.key` are CA bundles and test fixtures that programs need (Python's certifi/cacert.pem).
 */
const SKIP = new Set(['.git', '.hg', '.svn', 'node_modules', 'site-packages', 'dist-packages']);

function stampOf(dir: string): string | undefined {
  // Milliseconds as doubles keep sub-microsecond precision for today's dates.
  const st = lstatSync(dir, { throwIfNoEntry: false });
  return st?.isDirectory() ? `${st.ino}:${st.mtimeMs}:${st.ctimeMs}` : undefined;
}

function under(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/**
 * A symbolic link's target when the link or its target is a secret by name: a file named like
 * one, or a directory named like a secret directory or inside one. Undefined otherwise.
 */
function linkedSecret(link: string, roots: readonly string[]): HiddenPath | undefined {
  let real: string;
  let dir: boolean;
  try {
    real = realpathSync(link);
    dir = statSync(real).isDirectory();
  } catch {
    return undefined; // Dangling: nothing to read.
  }
  const root = roots.find((r) => under(real, r));
  const shown = root ? relative(root, real) : real;
  const secret = dir
    ? secretDirName(basename(link)) || shown.split(sep).some(secretDirName)
    : !!(sensitiveMatch(basename(link), 'read') ?? sensitiveMatch(shown, 'read'));
  return secret ? { path: real, dir } : undefined;
}

function readDir(dir: string, roots: readonly string[]): { state: Omit<DirState, 'stamp'>; entries: number } {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return { state: { secrets: [], subdirs: [] }, entries: 1 };
  }
  const secrets: HiddenPath[] = [];
  const subdirs: string[] = [];
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isSymbolicLink()) {
      const target = linkedSecret(path, roots);
      if (target) secrets.push(target);
    } else if (e.isDirectory()) {
      if (SKIP.has(e.name)) continue;
      if (secretDirName(e.name)) secrets.push({ path, dir: true });
      else subdirs.push(path);
    } else if (sensitiveMatch(e.name, 'read')) {
      secrets.push({ path, dir: false });
    }
  }
  return { state: { secrets, subdirs }, entries: entries.length + 1 };
}

export class SecretScanner {
  private readonly dirs = new Map<string, DirState>();
  private readonly running = new Map<string, Promise<ScanResult>>();

  constructor(private readonly budget: ScanBudget = SCAN_BUDGET_DEFAULT) {}

  /** The secrets under `roots` (real paths); concurrent calls for the same roots share one walk. */
  scan(roots: readonly string[]): Promise<ScanResult> {
    const key = roots.join('\0');
    let hit = this.running.get(key);
    if (!hit) {
      hit = this.walk(roots).finally(() => this.running.delete(key));
      this.running.set(key, hit);
    }
    return hit;
  }

  private async walk(roots: readonly string[]): Promise<ScanResult> {
    const started = performance.now();
    const queue = [...roots];
    const visited = new Set<string>();
    const found = new Map<string, HiddenPath>();
    let seen = 0;
    for (let i = 0; i < queue.length; i++) {
      if (seen >= this.budget.entries || performance.now() - started > this.budget.ms)
        return this.partial(roots, found, visited, seen);
      if (i % 256 === 255) await yieldToLoop();
      const dir = queue[i];
      if (visited.has(dir)) continue;
      visited.add(dir);
      const stamp = stampOf(dir);
      if (!stamp) {
        this.dirs.delete(dir);
        continue;
      }
      let state = this.dirs.get(dir);
      if (state?.stamp !== stamp) {
        const read = readDir(dir, roots);
        seen += read.entries;
        state = { stamp, ...read.state };
        this.dirs.set(dir, state);
      }
      for (const s of state.secrets) found.set(s.path, s);
      queue.push(...state.subdirs);
    }
    // Forget directories that are gone (or outside these roots' trees now).
    for (const dir of this.dirs.keys())
      if (!visited.has(dir) && roots.some((r) => under(dir, r))) this.dirs.delete(dir);
    return { hidden: [...found.values()], complete: true, seen };
  }

  /** Out of budget: what was found, plus what earlier walks found in directories not reached this time. */
  private partial(
    roots: readonly string[],
    found: Map<string, HiddenPath>,
    visited: Set<string>,
    seen: number,
  ): ScanResult {
    for (const [dir, state] of this.dirs) {
      if (visited.has(dir) || !roots.some((r) => under(dir, r))) continue;
      for (const s of state.secrets)
        if (!found.has(s.path) && lstatSync(s.path, { throwIfNoEntry: false })) found.set(s.path, s);
    }
    return { hidden: [...found.values()], complete: false, seen };
  }
}
