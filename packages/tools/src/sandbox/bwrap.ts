// The bubblewrap command line for one profile. Pure: what exists on disk is decided by the caller.
// Mounts apply in order, so the later ones win: the whole file system read-only, a fresh /dev,
// /proc and /tmp, the other private directories (/run), then what must stay readable under them
// (toolbelt's own installation, kept sockets, resolv.conf), then the roots (writable, or read-only
// again when under /tmp), then the extra writable directories, then the directories pinned in
// place, the hidden paths, and last the paths in the roots that stay read-only.
import type { Invocation } from '../process/limits.js';

export interface HiddenPath {
  path: string;
  dir: boolean;
}

export interface BwrapProfile {
  /** Workspace roots: writable unless readOnly. */
  roots: readonly string[];
  /** The whole file system read-only, roots included (a command judged a read). */
  readOnly: boolean;
  network: boolean;
  /** User-namespace and capability flags from the probe; empty only for a control in tests. */
  hardening?: readonly string[];
  /** Directories replaced by an empty, private, writable tmpfs besides /tmp (/run: local sockets). */
  privateDirs?: readonly string[];
  /** Existing paths under a private directory mounted back read-only over it. */
  readable?: readonly string[];
  /** Existing directories writable besides the roots (ignored when readOnly). */
  writable: readonly string[];
  /** Directories in a root mounted over themselves, so they cannot be renamed or replaced (`.git`). */
  pinned?: readonly string[];
  /** Existing paths to show empty: a directory as an empty read-only tmpfs, a file as `emptyFile`. */
  hidden: readonly HiddenPath[];
  /**
   * An empty read-only regular file mounted over hidden files. /dev/null would do only outside a
   * user namespace: mounted from inside one it is `nodev` and cannot be opened at all.
   */
  emptyFile?: string;
  /** Existing paths in a root that stay read-only in every profile (`.git/config`, `.git/hooks`). */
  readOnlyPaths?: readonly string[];
  /** Where the command starts; must be visible inside. */
  cwd?: string;
}

export function bwrapArgs(p: BwrapProfile): string[] {
  const args = [
    // The sandbox goes when toolbelt does; every namespace is new (user and cgroup where allowed).
    '--die-with-parent',
    '--unshare-all',
    ...(p.hardening ?? []),
    ...(p.network ? ['--share-net'] : []),
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
  ];
  for (const dir of p.privateDirs ?? []) args.push('--tmpfs', dir);
  for (const path of p.readable ?? []) args.push('--ro-bind', path, path);
  for (const root of p.roots) args.push(p.readOnly ? '--ro-bind' : '--bind', root, root);
  if (!p.readOnly) for (const dir of p.writable) args.push('--bind', dir, dir);
  if (!p.readOnly) for (const dir of p.pinned ?? []) args.push('--bind', dir, dir);
  const empty = p.emptyFile ?? '/dev/null';
  for (const h of p.hidden)
    args.push(...(h.dir ? ['--tmpfs', h.path, '--remount-ro', h.path] : ['--ro-bind', empty, h.path]));
  for (const path of p.readOnlyPaths ?? []) args.push('--ro-bind', path, path);
  // Programs honour TMPDIR first; one pointing outside /tmp would be read-only.
  args.push('--setenv', 'TMPDIR', '/tmp');
  if (p.cwd) args.push('--chdir', p.cwd);
  return args;
}

/** `inv` run inside bubblewrap. */
export function bwrapInvocation(bwrap: string, profile: BwrapProfile, inv: Invocation): Invocation {
  return { file: bwrap, args: [...bwrapArgs(profile), '--', inv.file, ...inv.args], sandboxed: true };
}
