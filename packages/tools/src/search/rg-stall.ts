// rg opens every .gitignore, .ignore and .rgignore it meets with a blocking open(2) and reads it to
// the end: one that is a named pipe (or a symlink to one, or to a device) stops rg for good. rg
// walks on its own, and checking ahead would walk every tree twice; so only a search rg has not
// finished after STALL_MS, and that has stopped using CPU with no thread running or reading (on
// Linux, from /proc: a busy machine makes long searches common, and a walk beside every one of
// them cost a fifth more time), has its ignore files checked, with toolbelt's own walk (which
// reads such files safely, see filters.ts). If one would block, rg is stopped and the JS engine answers.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { IGNORE_FILES, SearchFilter } from '../walk/filters.js';
import type { GrepQuery } from './results.js';
import { walk } from '../walk/walk.js';

/** How long rg runs before its ignore files are checked; rg finishes most searches well within it. */
export const STALL_MS = 1000;

/** How often a running rg's CPU time is sampled after STALL_MS. */
export const SAMPLE_MS = 250;

const NAMES = new Set<string>(Object.values(IGNORE_FILES));

/** CPU clock ticks a process has used (all its threads), or undefined where /proc cannot tell. */
function cpuTicks(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/**
 * Whether some thread of the process is doing something, from /proc: running or waiting for a core
 * (R), reading the disk (D), or blocked writing its output to us (a full pipe: we are the slow
 * side, not an ignore file). Undefined where /proc cannot tell.
 */
function busy(pid: number): boolean | undefined {
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const state = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8').split(') ')[1]?.[0];
      if (state === 'R' || state === 'D') return true;
      const wchan = readFileSync(`/proc/${pid}/task/${task}/wchan`, 'utf8');
      if (wchan.includes('pipe_write')) return true;
    }
    return false;
  } catch {
    return undefined;
  }
}

/**
 * A test, called every SAMPLE_MS after STALL_MS, that is true once the process looks stuck: it
 * used no CPU since the last call and no thread of it is running, reading the disk or writing its
 * output (a loaded machine, a cold disk or a slow reader of the output stop none of them for good,
 * and each would cost a walk of the tree). Without /proc every call is true (the check runs at STALL_MS).
 */
function stallDetector(pid: number | undefined): () => boolean {
  let last = pid === undefined ? undefined : cpuTicks(pid);
  return () => {
    if (pid === undefined || last === undefined) return true;
    const now = cpuTicks(pid);
    if (now === undefined) return true;
    if (now !== last) {
      last = now;
      return false;
    }
    return busy(pid) !== true;
  };
}

/** True when opening and reading `abs` may never end: it exists and is neither a file nor a directory. */
function blocks(abs: string): boolean {
  try {
    const st = statSync(abs, { throwIfNoEntry: false });
    return st !== undefined && !st.isFile() && !st.isDirectory();
  } catch {
    return false;
  }
}

/** The first ignore file rg would never finish reading in this search (relative to its root, or absolute above it). */
export async function blockingIgnoreFile(q: GrepQuery, signal: AbortSignal): Promise<string | undefined> {
  if (!q.ignoreFiles) return undefined;
  // rg also reads the ignore files of the directories above the root.
  for (let d = dirname(q.root); ; d = dirname(d)) {
    for (const name of NAMES) if (blocks(join(d, name))) return join(d, name);
    if (dirname(d) === d) break;
  }
  let found: string | undefined;
  await walk({
    root: q.root,
    filter: new SearchFilter({ globs: q.globs, ignoreFiles: true }),
    signal,
    onFile: () => true,
    onOther(abs, rel, name) {
      if (!NAMES.has(name) || !blocks(abs)) return true;
      found = rel;
      return false;
    },
  });
  return found;
}

/** Watches a running rg: once it looks stuck past STALL_MS, checks its ignore files and reports one that blocks. Stop it when rg ends. */
export function watchForStall(
  q: GrepQuery,
  pid: number | undefined,
  onBlocked: (path: string) => void,
): { stop(): void } {
  const scan = new AbortController();
  const stalled = stallDetector(pid);
  const check = () => {
    if (scan.signal.aborted) return;
    if (!stalled()) {
      timer = setTimeout(check, SAMPLE_MS);
      return;
    }
    void blockingIgnoreFile(q, scan.signal).then(
      (found) => {
        if (found !== undefined && !scan.signal.aborted) onBlocked(found);
      },
      () => undefined,
    );
  };
  let timer = setTimeout(check, STALL_MS);
  return {
    stop() {
      clearTimeout(timer);
      scan.abort();
    },
  };
}
