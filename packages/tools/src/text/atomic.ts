// Crash-safe writes: the data goes to a fresh temp file beside the target (exclusive create, so a
// symlink planted at the temp name is never followed), is flushed, then renamed over the target.
// rename(2) replaces a symlink at the target instead of writing through it, and a reader or a
// crash at any instant sees the old file or the new one, never a mix.
//
// The directory is opened first and every name is reached through its descriptor
// (text/opened.ts): with `resolved`, the directory must be the one the guard checked, so a
// directory on the path swapped for a link to /etc after the check makes the write fail instead of
// landing outside the workspace.
import { randomBytes } from 'node:crypto';
import { constants, fsyncSync } from 'node:fs';
import { lstat, open, readdir, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { openDirChecked, type OpenDir } from './opened.js';
import { deadWriterOf } from './leftovers.js';

export interface AtomicWriteOptions {
  /** Permission bits for a new file; an existing file keeps its own. Default 0o644 (after umask). */
  mode?: number;
  /** Skip fsync (tests, scratch files). Default false: data and directory are flushed. */
  noSync?: boolean;
  /**
   * `path` is a real path the workspace guard checked: its directory must still be exactly there
   * when it is opened (no link on the way), or the write is refused. File tools always set it.
   */
  resolved?: boolean;
}

/** The temp name for `path`: hidden, in the same directory (rename must not cross devices), named as toolbelt's with its pid. */
export function tempPathFor(path: string): string {
  return join(dirname(path), tempName(basename(path)));
}

function tempName(base: string): string {
  return `.${base}.toolbelt-${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
}

const swept = new Set<string>();

/**
 * Removes the temp files a killed write left in this directory (their writer's process is gone):
 * once per directory per process, at its first write, so a crash never leaves them for good.
 */
async function sweepLeftovers(dir: OpenDir): Promise<void> {
  if (swept.has(dir.path)) return;
  if (swept.size > 10_000) swept.clear();
  swept.add(dir.path);
  for (const name of await readdir(dir.path).catch(() => [] as string[])) {
    if (deadWriterOf(name) !== undefined) await unlink(dir.at(name)).catch(() => undefined);
  }
}

/** Permission bits of an existing regular file at `path`, or undefined. */
async function existingMode(path: string): Promise<number | undefined> {
  try {
    const st = await lstat(path);
    return st.isFile() ? st.mode & 0o7777 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs `fill` against a new exclusive temp file, then renames it over `path`. On any failure the
 * temp file is removed and `path` is left exactly as it was.
 */
export async function replaceAtomically(
  path: string,
  fill: (fh: FileHandle) => Promise<void>,
  opts: AtomicWriteOptions = {},
): Promise<void> {
  const dir = openDirChecked(dirname(path), dirname(path), { check: opts.resolved === true });
  try {
    await replaceIn(dir, basename(path), fill, opts);
  } finally {
    dir.close();
  }
}

async function replaceIn(
  dir: OpenDir,
  base: string,
  fill: (fh: FileHandle) => Promise<void>,
  opts: AtomicWriteOptions,
): Promise<void> {
  await sweepLeftovers(dir);
  const target = dir.at(base);
  const mode = (await existingMode(target)) ?? opts.mode ?? 0o644;
  const tmp = dir.at(tempName(base));
  // O_EXCL: fails rather than following a symlink or reusing a file someone planted at tmp.
  const fh = await open(
    tmp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
    mode,
  );
  let renamed = false;
  try {
    try {
      await fill(fh);
      // open() applies the umask; an existing file's mode is restored exactly.
      await fh.chmod(mode);
      if (!opts.noSync) await fh.datasync();
    } finally {
      await fh.close();
    }
    await rename(tmp, target);
    renamed = true;
  } finally {
    if (!renamed) await unlink(tmp).catch(() => undefined);
  }
  if (!opts.noSync) syncDirectory(dir);
}

/** Writes `data` to `path` atomically (see file comment). */
export async function atomicWrite(
  path: string,
  data: string | Uint8Array,
  opts: AtomicWriteOptions = {},
): Promise<void> {
  await replaceAtomically(
    path,
    async (fh) => {
      await fh.writeFile(data);
    },
    opts,
  );
}

/** Makes the rename itself durable; some file systems refuse to fsync a directory, which is fine. */
function syncDirectory(dir: OpenDir): void {
  try {
    fsyncSync(dir.fd);
  } catch {
    // best effort
  }
}

/** Copies all of `src` (from its start) into `dest` at its position, a megabyte at a time. */
export async function copyInto(src: FileHandle, dest: FileHandle): Promise<void> {
  const buf = Buffer.allocUnsafe(1024 * 1024);
  for (let pos = 0; ;) {
    const { bytesRead } = await src.read(buf, 0, buf.length, pos);
    if (bytesRead === 0) return;
    await dest.write(buf, 0, bytesRead);
    pos += bytesRead;
  }
}
