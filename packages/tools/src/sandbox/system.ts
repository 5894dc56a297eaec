// What the sandbox takes away from the rest of the machine, beyond the user's own secrets:
// - files only root should read (password hashes, sudoers, SSH host keys…), shown empty in every
//   profile: root runs as nobody inside, mapped to root outside, so it still reads root's files by
//   owner permission;
// - /run (and /var/run when it is not a link to it): the local services' sockets (PostgreSQL,
//   Docker, D-Bus, session agents), replaced by an empty private tmpfs, but for the sockets the
//   config keeps (sandbox.sockets) and, with the network, the resolv.conf that lives there;
// - for a read, other users' homes and /root: a read has no need for them.
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HiddenPath } from './bwrap.js';

/** Files and directories only root reads, hidden from every sandboxed command. */
const ROOT_ONLY: readonly string[] = [
  '/etc/shadow',
  '/etc/shadow-',
  '/etc/gshadow',
  '/etc/gshadow-',
  '/etc/sudoers',
  '/etc/sudoers.d',
  '/etc/security/opasswd',
  '/etc/ssl/private',
  '/etc/krb5.keytab',
  '/etc/mysql/debian.cnf',
  '/etc/NetworkManager/system-connections',
  '/etc/wireguard',
  '/etc/exim4/passwd.client',
];

/** Directories replaced by an empty private tmpfs in every profile, besides /tmp. */
const PRIVATE_DIRS: readonly string[] = ['/run', '/var/run'];

/** Where users' homes are, besides /root. */
export const HOMES_DEFAULT: readonly string[] = ['/home'];

export function under(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

export function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * What is at `path`, or undefined when nothing this user can reach is: a path under a directory it
 * may not search (a HOME of root's, kept by setpriv or runuser) is out of a command's reach too.
 */
export function kindOf(path: string): HiddenPath | undefined {
  let st;
  try {
    st = lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined; // EACCES, ENOTDIR, ELOOP: the command, running as this user, cannot reach it either
  }
  if (!st) return undefined;
  return { path, dir: st.isDirectory() };
}

/** ROOT_ONLY and the SSH host private keys, as they exist here. */
export function rootOnlyPaths(): HiddenPath[] {
  const out = ROOT_ONLY.map(kindOf).filter((h): h is HiddenPath => !!h);
  let ssh: string[] = [];
  try {
    ssh = readdirSync('/etc/ssh').filter((n) => /^ssh_host_.*_key$/.test(n));
  } catch {
    // No SSH server here.
  }
  for (const n of ssh) out.push({ path: join('/etc/ssh', n), dir: false });
  return out;
}

/** The private directories that exist here, as real directories (/var/run is usually a link to /run). */
export function privateDirs(): string[] {
  const dirs = new Set<string>();
  for (const d of PRIVATE_DIRS) if (existsSync(d)) dirs.add(realOrSelf(d));
  return [...dirs];
}

/**
 * Other users' homes (entries of `homes`) and /root, for a read: all but the user's own and those
 * that hold something the command needs (a root, a PATH entry, Node, toolbelt's installation, a
 * writable directory or a kept socket).
 */
export function otherHomes(homes: readonly string[], keep: readonly string[]): HiddenPath[] {
  const candidates = ['/root'];
  for (const h of homes) {
    try {
      for (const e of readdirSync(h, { withFileTypes: true })) if (e.isDirectory()) candidates.push(join(h, e.name));
    } catch {
      // No such directory.
    }
  }
  const kept = keep.map(realOrSelf);
  return candidates
    .map(realOrSelf)
    .filter((c) => existsSync(c) && !kept.some((k) => under(k, c) || under(c, k)))
    .map((path) => ({ path, dir: true }));
}

/** What a command may need from the places around: PATH entries and Node's own directory. */
export function neededPlaces(env: NodeJS.ProcessEnv = process.env): string[] {
  const path = (env.PATH ?? '').split(':').filter((p) => p.startsWith('/'));
  return [...path, dirname(process.execPath)];
}

/**
 * toolbelt's own installation: the first directory above this file whose node_modules holds
 * @toolbelt. Under a private directory (a checkout in a temp directory, a CI job) it is mounted
 * back read-only, or the servers and tools it runs from its node_modules would not start.
 */
export const INSTALL_DIR: string | undefined = (() => {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', '@toolbelt'))) return dir;
  }
  return undefined;
})();

/**
 * Paths under the private directories (/tmp, /run) to mount back read-only: toolbelt's
 * installation and Node when there, the kept sockets, and with the network the resolv.conf that
 * systemd-resolved or NetworkManager keep under /run.
 */
export function readableBack(priv: readonly string[], sockets: readonly string[], network: boolean): string[] {
  const out = new Set<string>();
  const inPrivate = (p: string) => priv.some((d) => under(p, d) && p !== d);
  for (const p of [INSTALL_DIR, dirname(process.execPath)]) if (p && inPrivate(p)) out.add(p);
  for (const s of sockets) if (existsSync(s)) out.add(realOrSelf(s));
  if (network && existsSync('/etc/resolv.conf')) {
    const resolv = realOrSelf('/etc/resolv.conf');
    if (inPrivate(resolv)) out.add(resolv);
  }
  return [...out];
}

let empty: string | undefined;

/**
 * An empty file, read-only, of this process (in a directory of its own under the temp directory,
 * removed when the process exits), to mount over hidden files.
 */
export function emptyFile(): string {
  if (empty && existsSync(empty)) return empty;
  const dir = mkdtempSync(join(tmpdir(), 'toolbelt-empty-'));
  const file = join(dir, 'empty');
  writeFileSync(file, '', { mode: 0o444 });
  chmodSync(dir, 0o555);
  process.once('exit', () => {
    try {
      chmodSync(dir, 0o700);
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Gone already.
    }
  });
  return (empty = realpathSync(file));
}
