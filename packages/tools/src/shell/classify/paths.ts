// Facts about paths the classifier needs: which ones are the whole system (never delete them
// recursively), which are disks (never write to them), which are harmless sinks.
import { lstatSync, readlinkSync } from 'node:fs';
import { posix } from 'node:path';
import { hasGlob, type Word } from './words.js';

const SYSTEM_DIRS = [
  '/',
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/home',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/opt',
  '/proc',
  '/root',
  '/run',
  '/sbin',
  '/srv',
  '/sys',
  '/usr',
  '/var',
  '/mnt',
  '/media',
  '/snap',
  '/usr/bin',
  '/usr/sbin',
  '/usr/lib',
  '/usr/local',
  '/usr/share',
  '/var/lib',
  '/System',
  '/Users',
  '/Library',
  '/Applications',
  '/private',
];
const SYSTEM = new Set(SYSTEM_DIRS);

/** Whole disks, partitions and kernel memory. */
const DEVICE =
  /^\/dev\/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|loop\d|dm-\d|md\d|sr\d|disk\/|mapper\/|mem$|kmem$|port$)/;

/** Writing here changes no file. */
const SINKS = /^\/dev\/(null|zero|full|stdout|stderr|tty|fd\/\d+)$|^\/proc\/self\/fd\/\d+$/;

export function normalizeAbs(path: string): string {
  const n = posix.normalize(path);
  return n.length > 1 && n.endsWith('/') ? n.slice(0, -1) : n;
}

const MAX_LINKS = 40;

/**
 * An absolute path as the kernel resolves it: a `..` goes up from where the component before it
 * really is, so `link/../etc/shadow` with `link` -> `/etc/ssl` is `/etc/etc/shadow`, outside, not
 * `./etc/shadow`. Paths without `..` are only normalized; links elsewhere are the
 * caller's (realpath) business.
 */
export function physicalPath(path: string): string {
  if (!path.split('/').includes('..')) return normalizeAbs(path);
  const queue = path.split('/').reverse();
  let cur = '/';
  let links = 0;
  while (queue.length) {
    const comp = queue.pop()!;
    if (comp === '' || comp === '.') continue;
    if (comp === '..') {
      cur = posix.dirname(cur);
      continue;
    }
    const next = cur === '/' ? `/${comp}` : `${cur}/${comp}`;
    // Only a link with a `..` after it changes the answer; the rest is left to realpath.
    if (queue.includes('..') && isLink(next)) {
      if (++links > MAX_LINKS) return next;
      const target = readlinkSync(next);
      if (target.startsWith('/')) cur = '/';
      queue.push(...target.split('/').reverse());
      continue;
    }
    cur = next;
  }
  return cur;
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * What a recursive delete of this path would destroy, when that is the system or a home directory
 * (`/`, `/usr`, `~`, `/*`, `~/*`); undefined for ordinary paths.
 */
export function criticalTarget(abs: string, word: Word, home: string): string | undefined {
  const path = normalizeAbs(abs);
  const what = criticalName(path, home);
  if (what) return what;
  // `/*`, `~/.*`, `/usr/*`: every entry of a critical directory.
  if (hasGlob(word)) {
    const base = posix.basename(path);
    if (/^[*.?[\]{},!]+$/.test(base) && base.includes('*')) {
      const dir = criticalName(normalizeAbs(posix.dirname(path)), home);
      if (dir) return `everything in ${dir}`;
    }
  }
  return undefined;
}

function criticalName(path: string, home: string): string | undefined {
  if (path === '/') return 'the whole file system';
  if (home && path === normalizeAbs(home)) return 'the home directory';
  if (SYSTEM.has(path)) return `the system directory ${path}`;
  return undefined;
}

export function isDevice(abs: string): boolean {
  return DEVICE.test(normalizeAbs(abs));
}

export function isSink(abs: string): boolean {
  return SINKS.test(normalizeAbs(abs));
}
