// "Changed on disk since the agent last read it": read_file records what it saw of each file in
// the session state; edit_file and write_file compare before they write, and record what they wrote.
// A file the session never read is not checked: there is nothing to compare with.
import type { Stats } from 'node:fs';
import { ToolError, type SessionState } from '@toolbelt/core';

const KEY = 'fs.seen';

interface Seen {
  mtimeMs: number;
  size: number;
  ino: number;
}

function table(state: SessionState): Map<string, Seen> {
  let t = state.get(KEY) as Map<string, Seen> | undefined;
  if (!t) {
    t = new Map();
    state.set(KEY, t);
  }
  return t;
}

export function recordSeen(state: SessionState, absPath: string, stat: Pick<Stats, 'mtimeMs' | 'size' | 'ino'>): void {
  table(state).set(absPath, { mtimeMs: stat.mtimeMs, size: stat.size, ino: stat.ino });
}

export function forgetSeen(state: SessionState, absPath: string): void {
  table(state).delete(absPath);
}

function lastSeen(state: SessionState, absPath: string): Seen | undefined {
  return (state.get(KEY) as Map<string, Seen> | undefined)?.get(absPath);
}

/** Throws CONFLICT when the file on disk is not the one this session last read or wrote. */
export function assertUnchanged(
  state: SessionState,
  absPath: string,
  now: Pick<Stats, 'mtimeMs' | 'size' | 'ino'> | undefined,
  shown: string,
): void {
  const seen = lastSeen(state, absPath);
  // Nothing seen, or nothing there any more (writing creates it afresh).
  if (!seen || !now) return;
  if (now.mtimeMs !== seen.mtimeMs || now.size !== seen.size || now.ino !== seen.ino) {
    throw new ToolError(
      'CONFLICT',
      `${shown} changed on disk since you last read it. Read it again with read_file, then redo the change.`,
    );
  }
}
