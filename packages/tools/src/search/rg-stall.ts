// rg opens every .gitignore, .ignore and .rgignore it meets with a blocking open(2) and reads it to
// the end: one that is a named pipe (or a symlink to one, or to a device) stops rg for good. rg
// walks on its own, and checking ahead would walk every tree twice; so only a search rg has not
// finished after STALL_MS has its ignore files checked, with toolbelt's own walk (which reads such
// files safely, see filters.ts). If one would block, rg is stopped and the JS engine answers.
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { IGNORE_FILES, SearchFilter } from '../walk/filters.js';
import type { GrepQuery } from './results.js';
import { walk } from '../walk/walk.js';

/** How long rg runs before its ignore files are checked; rg finishes most searches well within it. */
export const STALL_MS = 1000;

const NAMES = new Set<string>(Object.values(IGNORE_FILES));

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
