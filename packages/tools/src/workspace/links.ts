// When a regular file with more than one name (hard links) may be read. A hard link passes every
// path check: `ln ~/.ssh/id_ed25519 ws/notes` puts a file from outside the roots under a name
// inside, so by default such a file is treated as outside. Two cases are proven safe instead:
//
// - A package store's copy. pnpm hard-links every file of node_modules/.pnpm to its
//   content-addressed store, where the file's name is the SHA-512 of its content
//   (<store>/files/ab/cdef…, "-exec" for executables). We hash what the file holds now and find
//   that name, the same inode, in the store. Whoever named it knew the content, so reading it
//   reveals nothing that was not already public package content, wherever its other names are;
//   the store location read from node_modules/.modules.yaml needs no trust for that.
// - Every name inside the roots: a walk of the roots finds as many names for the inode as it
//   has links (a tree copied with `cp -al` inside the workspace).
//
// Neither the owner nor the device decides: a user's own keys are theirs, and every hard link is
// on its file's device by construction. Writes never use this: writing through a store copy
// would change every project that shares it.
import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
} from 'node:fs';
import { sep } from 'node:path';

/** As workspace/special.ts READ_FLAGS: never blocks, never follows a final symlink. */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** Which inode a search read, and how many names it had then. */
export interface LinkId {
  dev: number;
  ino: number;
  nlink: number;
}

const PNPM_VIRTUAL = `${sep}node_modules${sep}.pnpm${sep}`;
/** <store>/files/ab/<126 hex>[-exec]: the file's own name is its SHA-512. */
const STORE_NAME = /[\\/]files[\\/]([0-9a-f]{2})[\\/]([0-9a-f]{126})(-exec)?$/;
/** Larger files are not hashed (left unproven): package files are far smaller, and the hash blocks. */
const MAX_HASH_BYTES = 256 * 1024 * 1024;
/** Entries a names walk looks at before it gives up (the rest stay unproven). */
const MAX_WALK_ENTRIES = 2_000_000;

function sha512Of(path: string, id: LinkId): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.dev !== id.dev || st.ino !== id.ino || st.size > MAX_HASH_BYTES) return undefined;
    const hash = createHash('sha512');
    const buf = Buffer.allocUnsafe(1 << 20);
    for (let n = readSync(fd, buf, 0, buf.length, null); n > 0; n = readSync(fd, buf, 0, buf.length, null))
      hash.update(buf.subarray(0, n));
    return hash.digest('hex');
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** pnpm's store directory as node_modules/.modules.yaml records it (JSON since pnpm 9, YAML before). */
function pnpmStoreOf(nodeModules: string): string | undefined {
  try {
    const text = readFileSync(`${nodeModules}${sep}.modules.yaml`, 'utf8');
    return /^\s*"?storeDir"?\s*:\s*"?([^"\n]+?)"?,?\s*$/m.exec(text)?.[1];
  } catch {
    return undefined;
  }
}

function sameInode(path: string, id: LinkId): boolean {
  const st = statSync(path, { throwIfNoEntry: false });
  return st !== undefined && st.isFile() && st.dev === id.dev && st.ino === id.ino;
}

/** Per call: the store directories found so far, by node_modules directory. */
export class LinkProof {
  private stores = new Map<string, string | undefined>();

  /** True when the file at `path` (the inode `id`) is a content-addressed store copy (see above). */
  storeCopy(path: string, id: LinkId): boolean {
    const own = STORE_NAME.exec(path);
    const at = path.indexOf(PNPM_VIRTUAL);
    if (!own && at === -1) return false;
    const hex = sha512Of(path, id);
    if (!hex) return false;
    if (own) return own[1] + own[2] === hex;
    const nodeModules = path.slice(0, at + `${sep}node_modules`.length);
    if (!this.stores.has(nodeModules)) this.stores.set(nodeModules, pnpmStoreOf(nodeModules));
    const store = this.stores.get(nodeModules);
    if (!store) return false;
    const name = `${store}${sep}files${sep}${hex.slice(0, 2)}${sep}${hex.slice(2)}`;
    return sameInode(name, id) || sameInode(`${name}-exec`, id);
  }
}

const key = (dev: number, ino: number) => `${dev}:${ino}`;

/** Roots with those below another root left out, so no name is counted twice. */
function outermost(roots: readonly string[]): string[] {
  const sorted = [...new Set(roots)].sort();
  return sorted.filter((r) => !sorted.some((o) => o !== r && r.startsWith(o.endsWith(sep) ? o : o + sep)));
}

/**
 * Of `files` (path and inode), the paths whose inode has all its names inside the roots: a walk
 * of the roots (no symlinks followed, each directory inode once, so a bind mount is not counted
 * twice) stops as soon as every inode is accounted for.
 */
export function namedOnlyInside(
  roots: readonly string[],
  files: { path: string; id: LinkId }[],
  signal?: AbortSignal,
): Set<string> {
  const names = new Map<string, { nlink: number; seen: Set<string> }>();
  for (const f of files) names.set(key(f.id.dev, f.id.ino), { nlink: f.id.nlink, seen: new Set() });
  let open = names.size;
  const dirs = new Set<string>();
  const stack = outermost(roots);
  let entries = 0;
  while (stack.length && open > 0 && entries < MAX_WALK_ENTRIES && !signal?.aborted) {
    const dir = stack.pop()!;
    const st = lstatSync(dir, { throwIfNoEntry: false });
    if (!st?.isDirectory() || dirs.has(key(st.dev, st.ino))) continue;
    dirs.add(key(st.dev, st.ino));
    let list;
    try {
      list = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of list) {
      entries++;
      const abs = dir === sep ? sep + e.name : dir + sep + e.name;
      if (e.isDirectory()) stack.push(abs);
      else if (e.isFile()) {
        const f = lstatSync(abs, { throwIfNoEntry: false });
        const entry = f && f.nlink > 1 ? names.get(key(f.dev, f.ino)) : undefined;
        if (entry && entry.seen.size < entry.nlink) {
          entry.seen.add(abs);
          if (entry.seen.size === entry.nlink) open--;
        }
      }
    }
  }
  const inside = new Set<string>();
  for (const f of files) {
    const entry = names.get(key(f.id.dev, f.id.ino))!;
    // Names still as many as counted: a link added during the walk leaves the file unproven.
    const now = lstatSync(f.path, { throwIfNoEntry: false });
    if (entry.seen.size === entry.nlink && entry.seen.has(f.path) && now?.nlink === entry.nlink && now.ino === f.id.ino)
      inside.add(f.path);
  }
  return inside;
}

/** Whether one hard-linked file may be read: a store copy, or every name inside the roots. */
export function linkedReadable(roots: readonly string[], path: string, id: LinkId, proof = new LinkProof()): boolean {
  return proof.storeCopy(path, id) || namedOnlyInside(roots, [{ path, id }]).has(path);
}
