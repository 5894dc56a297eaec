// The bubblewrap command line for one profile. Pure: what exists on disk is decided by the caller.
// Mounts apply in order, so the later ones win: the whole file system read-only, a fresh /dev,
// /proc and /tmp, then what must stay readable under the new /tmp (toolbelt's own installation),
// then the roots (writable, or read-only again when under /tmp), then the extra writable
// directories, then paths in them kept read-only, then the hidden paths on top of everything.
import type { Invocation } from '../process/limits.js';

export interface BwrapProfile {
  /** Workspace roots: writable unless readOnly. */
  roots: readonly string[];
  /** The whole file system read-only, roots included (a command judged a read). */
  readOnly: boolean;
  network: boolean;
  /** Existing directories under /tmp mounted back read-only over the private /tmp. */
  readable?: readonly string[];
  /** Existing directories writable besides the roots (ignored when readOnly). */
  writable: readonly string[];
  /** Existing paths inside writable roots mounted read-only again (ignored when readOnly). */
  readOnlyPaths?: readonly string[];
  /** Existing paths to show empty: a directory as an empty tmpfs, a file as /dev/null. */
  hidden: readonly { path: string; dir: boolean }[];
  /** Where the command starts; must be visible inside. */
  cwd?: string;
}

export function bwrapArgs(p: BwrapProfile): string[] {
  const args = [
    // The sandbox goes when toolbelt does; every namespace is new (user and cgroup where allowed).
    '--die-with-parent',
    '--unshare-all',
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
  for (const dir of p.readable ?? []) args.push('--ro-bind', dir, dir);
  for (const root of p.roots) args.push(p.readOnly ? '--ro-bind' : '--bind', root, root);
  if (!p.readOnly) for (const dir of p.writable) args.push('--bind', dir, dir);
  if (!p.readOnly) for (const path of p.readOnlyPaths ?? []) args.push('--ro-bind', path, path);
  for (const h of p.hidden) args.push(...(h.dir ? ['--tmpfs', h.path] : ['--ro-bind', '/dev/null', h.path]));
  // Programs honour TMPDIR first; one pointing outside /tmp would be read-only.
  args.push('--setenv', 'TMPDIR', '/tmp');
  if (p.cwd) args.push('--chdir', p.cwd);
  return args;
}

/** `inv` run inside bubblewrap. */
export function bwrapInvocation(bwrap: string, profile: BwrapProfile, inv: Invocation): Invocation {
  return { file: bwrap, args: [...bwrapArgs(profile), '--', inv.file, ...inv.args], sandboxed: true };
}
