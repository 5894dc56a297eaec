// Temp files of crash-safe writes whose writer was killed mid-write: named `.<name>.toolbelt-<pid>-<hex>.tmp`
// (text/atomic.ts), so they are recognised and removed once their writer's process is gone: at a
// runtime's start across the workspace (bounded), and at the first write into a directory.
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/** A temp file of ours: the writer's pid in the name (the older form `.<name>.<pid>.<hex>.tmp` too). */
const TEMP = /^\..+\.(?:toolbelt-(\d+)-|(\d+)\.)[0-9a-f]{12}\.tmp$/;
/** Directories never walked: they hold no files the tools write, and can be huge. */
const SKIPPED = new Set(['.git', 'node_modules']);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid in `name` when it is one of our temp files whose writer is gone. */
export function deadWriterOf(name: string): number | undefined {
  const m = TEMP.exec(name);
  const pid = m ? Number(m[1] ?? m[2]) : undefined;
  return pid === undefined || pid === process.pid || alive(pid) ? undefined : pid;
}

/**
 * Removes leftover temp files under `roots`, walking at most `maxDirs` directories (breadth first,
 * no symlinks, no .git or node_modules); returns how many it removed. Never throws.
 */
export async function sweepLeftoverTemps(roots: readonly string[], maxDirs = 5000): Promise<number> {
  const queue = [...roots];
  let removed = 0;
  for (let seen = 0; queue.length && seen < maxDirs; seen++) {
    const dir = queue.shift()!;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (e.isDirectory() && !SKIPPED.has(e.name)) queue.push(join(dir, e.name));
      else if (e.isFile() && deadWriterOf(e.name) !== undefined)
        removed += await unlink(join(dir, e.name)).then(
          () => 1,
          () => 0,
        );
    }
  }
  return removed;
}
