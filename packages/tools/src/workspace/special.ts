// Files toolbelt never opens for their content, whatever their path: special files and regular
// files with more than one hard link. The guard checks where a path leads; this checks what is
// there. Every tool that reads or writes a file's content opens it through here.
//
// - A named pipe (FIFO) blocks open(2) until a writer appears: a synchronous open froze the event
//   loop for good, an asynchronous one held a thread-pool thread. Devices can block or have side
//   effects when read; sockets cannot be opened at all. So every open is O_NONBLOCK (a FIFO opens
//   at once, a socket fails with ENXIO) and O_NOFOLLOW, and fstat decides before any read.
// - A regular file with nlink > 1 has other names we cannot see. One may be outside the roots (a
//   hard link to /etc/shadow made by `ln` passes every path check), so such a file is treated as
//   outside: refused by the file tools, its hits withheld (and counted) by grep. Reads given the
//   roots accept the two proven cases of workspace/links.ts (a package store copy, every name
//   inside the roots); writes never do.
import { closeSync, constants, fstatSync, lstatSync, openSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { ToolError } from '@toolbelt/core';
import { assertOpenedAt, openHooks } from '../text/opened.js';
import { linkedReadable } from './links.js';

/** open(2) flags for reading a file without blocking, following a final symlink (check with fstat). */
export const READ_FLAGS_FOLLOW = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
/** open(2) flags for reading an existing file: never blocks, never follows a final symlink. */
export const READ_FLAGS = READ_FLAGS_FOLLOW | (constants.O_NOFOLLOW ?? 0);

type Kind = Pick<Stats, 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>;

/** What a special file is, in words ("named pipe (FIFO)"); undefined for regular files, directories and symlinks. */
export function specialKind(st: Kind): string | undefined {
  if (st.isFIFO()) return 'named pipe (FIFO)';
  if (st.isSocket()) return 'socket';
  if (st.isCharacterDevice()) return 'character device';
  if (st.isBlockDevice()) return 'block device';
  return undefined;
}

/** A regular file whose other names, if any, we cannot see. */
export function hasOtherNames(st: Pick<Stats, 'isFile' | 'nlink'>): boolean {
  return st.isFile() && st.nlink > 1;
}

/** True for what a search may read: a regular file with a single name. */
export function isPlainFile(st: Pick<Stats, 'isFile' | 'nlink'>): boolean {
  return st.isFile() && st.nlink <= 1;
}

/** Why toolbelt refuses the content of this file, or undefined (regular files with one name, directories, symlinks). */
export function fileRefusal(st: Stats, shown: string): ToolError | undefined {
  const kind = specialKind(st);
  if (kind)
    return new ToolError(
      'INVALID_PARAMS',
      `${shown} is a ${kind}, not a regular file; toolbelt only reads and writes regular files. Name a regular file instead.`,
    );
  if (hasOtherNames(st)) {
    return new ToolError(
      'INVALID_PARAMS',
      `${shown} has ${st.nlink} hard links; one may point outside the workspace, so toolbelt refuses it. Copy the file instead of hard-linking it.`,
    );
  }
  return undefined;
}

/**
 * Throws fileRefusal's error, if any. Directories pass: each tool says what it wants instead.
 * With `read` (the roots and the real path), a hard-linked file proven safe to read passes too.
 */
export function assertPlainFile(st: Stats, shown: string, read?: { roots: readonly string[]; abs: string }): void {
  if (read && hasOtherNames(st) && linkedReadable(read.roots, read.abs, st)) return;
  const refusal = fileRefusal(st, shown);
  if (refusal) throw refusal;
}

/** A socket (or a device with no driver) fails to open with ENXIO/ENODEV; say what it is. */
function explainOpenError(err: unknown, abs: string, shown: string): unknown {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code !== 'ENXIO' && code !== 'ENODEV' && code !== 'EOPNOTSUPP') return err;
  try {
    return fileRefusal(lstatSync(abs), shown) ?? err;
  } catch {
    return err;
  }
}

/**
 * Opens an existing resolved path for reading (see READ_FLAGS), then checks the descriptor: it must
 * be the file at `abs` (opened.ts: a directory on the path swapped for a link since the guard
 * resolved it is caught), and special and hard-linked files are refused by fstat (hard-linked ones
 * proven safe pass when `readRoots` is given, for reads). `abs` must be the real path the guard
 * returned. Directories are returned; the caller decides about them.
 */
export async function openChecked(
  abs: string,
  shown: string,
  readRoots?: readonly string[],
): Promise<{ fh: FileHandle; stat: Stats }> {
  let fh: FileHandle;
  openHooks.beforeOpen?.(abs);
  try {
    fh = await open(abs, READ_FLAGS);
  } catch (err) {
    throw explainOpenError(err, abs, shown);
  }
  try {
    assertOpenedAt(fh.fd, abs, shown);
    const stat = await fh.stat();
    assertPlainFile(stat, shown, readRoots && { roots: readRoots, abs });
    return { fh, stat };
  } catch (err) {
    await fh.close();
    throw err;
  }
}

/** openChecked with synchronous calls, for read_file's fast path (a few microseconds on a local disk). */
export function openCheckedSync(
  abs: string,
  shown: string,
  readRoots?: readonly string[],
): { fd: number; stat: Stats } {
  let fd: number;
  openHooks.beforeOpen?.(abs);
  try {
    fd = openSync(abs, READ_FLAGS);
  } catch (err) {
    throw explainOpenError(err, abs, shown);
  }
  try {
    assertOpenedAt(fd, abs, shown);
    const stat = fstatSync(fd);
    assertPlainFile(stat, shown, readRoots && { roots: readRoots, abs });
    return { fd, stat };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}
