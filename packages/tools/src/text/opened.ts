// The file a tool checked must be the file it opens. The guard resolves a path to its real path and
// checks that path; a process in the workspace can then swap a directory on it for a link to /etc
// before the tool opens it, and open(2) follows the link (O_NOFOLLOW guards the last component
// only). So every open is checked after the fact, on the descriptor: on Linux the kernel says where
// the descriptor really is (/proc/self/fd/N), and it must be exactly the path the guard checked;
// elsewhere the descriptor's device and inode must be those of the path now. A mismatch means the
// tree changed between the check and the open: the tool refuses and reads or writes nothing.
//
// Operations by name (create, rename, unlink, mkdir, readdir) go through an opened directory the
// same way: its descriptor is checked, and the name is looked up in it through
// /proc/self/fd/N/name, which the kernel resolves from that very directory (openat/renameat), so a
// swap of a directory above it no longer matters.
import { closeSync, constants, existsSync, fstatSync, lstatSync, mkdirSync, openSync, readlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ToolError } from '@toolbelt/core';

/** Test-only: called right before a checked open, so a test can swap the tree at that instant. */
export const openHooks: { beforeOpen?: (path: string) => void } = {};

let procFd: boolean | undefined;

/** Whether /proc/self/fd names descriptors (Linux). */
function hasProcFd(): boolean {
  procFd ??= process.platform === 'linux' && existsSync('/proc/self/fd');
  return procFd;
}

/** Where an open descriptor really is (Linux), or undefined where the system does not say. */
function openedPath(fd: number): string | undefined {
  if (!hasProcFd()) return undefined;
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

function swapped(shown: string): ToolError {
  return new ToolError(
    'PERMISSION_DENIED',
    `${shown} changed while it was being opened: what was opened is not the file that was checked (a directory on its path was replaced, perhaps by a link). Nothing was read or written; check the path and try again.`,
  );
}

/**
 * Throws unless the open descriptor `fd` is the file at `abs`, the real path the guard checked.
 * The caller closes the descriptor when this throws.
 */
export function assertOpenedAt(fd: number, abs: string, shown: string): void {
  const real = openedPath(fd);
  if (real !== undefined) {
    if (real !== abs) throw swapped(shown);
    return;
  }
  // No /proc: the descriptor must be the file the path names now (a swap back in between is not
  // caught here; Linux is what the checks above are for).
  let now;
  try {
    now = lstatSync(abs);
  } catch {
    throw swapped(shown);
  }
  const st = fstatSync(fd);
  if (now.dev !== st.dev || now.ino !== st.ino) throw swapped(shown);
}

/** An opened, checked directory: names in it are reached through the descriptor. */
export interface OpenDir {
  readonly fd: number;
  /** The real path the directory was checked at. */
  readonly path: string;
  /** A path for `name` in this very directory, immune to swaps above it (on Linux). */
  at(name: string): string;
  close(): void;
}

const DIR_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0);

/**
 * O_DIRECTORY|O_NOFOLLOW on a symbolic link fails with ENOTDIR (or ELOOP): when a link is what is
 * there now, say that the path changed rather than that a parent is a file.
 */
function linkMet(err: unknown, dir: string, shown: string): unknown {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code !== 'ENOTDIR' && code !== 'ELOOP') return err;
  try {
    return lstatSync(dir).isSymbolicLink() ? swapped(shown) : err;
  } catch {
    return err;
  }
}

/**
 * Opens a directory the guard resolved (a real path) and checks it is that directory. With
 * `check: false` (a path nobody checked, which may hold links) it is only opened.
 */
export function openDirChecked(
  dir: string,
  shown: string,
  { check = true, noFollow = check }: { check?: boolean; noFollow?: boolean } = {},
): OpenDir {
  openHooks.beforeOpen?.(dir);
  let fd: number;
  try {
    fd = openSync(dir, noFollow ? DIR_FLAGS : DIR_FLAGS & ~(constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    throw noFollow ? linkMet(err, dir, shown) : err;
  }
  try {
    if (check) assertOpenedAt(fd, dir, shown);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  const proc = hasProcFd();
  let open = true;
  return {
    fd,
    path: dir,
    at: (name) => (proc ? `/proc/self/fd/${fd}/${name}` : join(dir, name)),
    close: () => {
      if (open) closeSync(fd);
      open = false;
    },
  };
}

/** Runs `fn` with `dir` opened and checked; the descriptor is closed after. */
export async function inDir<T>(
  dir: string,
  shown: string,
  fn: (d: OpenDir) => Promise<T>,
  opts?: { check?: boolean; noFollow?: boolean },
): Promise<T> {
  const d = openDirChecked(dir, shown, opts);
  try {
    return await fn(d);
  } finally {
    d.close();
  }
}

/**
 * `mkdir -p` for a real path the guard checked, one directory at a time through descriptors: the
 * nearest existing parent is opened and checked, and each new directory is created in the one
 * before it and opened without following links. True when something was created.
 */
export function mkdirsChecked(abs: string, shown: string): boolean {
  const missing: string[] = [];
  let dir = abs;
  while (!existsSync(dir)) {
    const parent = dirname(dir);
    if (parent === dir) break;
    missing.unshift(basename(dir));
    dir = parent;
  }
  if (!missing.length) return false;
  let d = openDirChecked(dir, shown);
  try {
    for (const name of missing) {
      try {
        mkdirSync(d.at(name));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const next = openDirChecked(d.at(name), shown, { check: false, noFollow: true });
      d.close();
      d = { ...next, path: join(d.path, name) };
      assertOpenedAt(d.fd, d.path, shown);
    }
  } finally {
    d.close();
  }
  return true;
}
