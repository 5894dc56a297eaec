// Whether bubblewrap works here: found in a fixed place, and able to build the very sandbox commands
// get (user, network and pid namespaces, /proc, tmpfs) with every capability dropped. Tried once per
// binary and process; the answer says why not and what would fix it, and which hardening flags this
// bubblewrap took.
import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { programChoice, programPath } from '../process/programs.js';
import { bwrapArgs } from './bwrap.js';

export type SandboxStatus =
  | {
      ok: true;
      bwrap: string;
      /** The user-namespace and capability flags every sandbox gets (see hardeningCandidates). */
      hardening: readonly string[];
      /** What this bubblewrap could not do that a newer one would (for `toolbelt doctor`). */
      notes: readonly string[];
    }
  | { ok: false; bwrap: string; reason: string; hint: string };

const cache = new Map<string, Promise<SandboxStatus>>();

/**
 * The absolute path of a program: as given when it has a slash, else from a fixed place on PATH
 * (never a PATH entry inside the workspace or node_modules; see process/programs.ts).
 */
export function findProgram(name: string, path?: string): string | undefined {
  if (!name.includes('/')) return programChoice(name, path).path;
  try {
    accessSync(name, constants.X_OK);
    return statSync(name).isFile() ? resolve(name) : undefined;
  } catch {
    return undefined;
  }
}

function run(
  file: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string; error?: Error }> {
  return new Promise((done) => {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.once('error', (error) => done({ code: null, stdout, stderr, error }));
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}

const INSTALL =
  'install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap)';
const UPGRADE = 'install bubblewrap 0.8 or newer (it has --disable-userns)';

/** What to do about a bwrap error message. */
function hintFor(stderr: string): string {
  if (
    /No permissions to creat|setting up uid map|uid_map|user namespace|Operation not permitted|Permission denied/i.test(
      stderr,
    )
  ) {
    return 'unprivileged user namespaces are off or restricted here: allow them (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 23.10+ an AppArmor profile for bwrap, or sysctl kernel.apparmor_restrict_unprivileged_userns=0), or inside a container run it with user namespaces allowed';
  }
  if (/proc/i.test(stderr))
    return 'the container does not allow mounting /proc in a new namespace: run it with a less restrictive seccomp/AppArmor profile';
  return 'run the command shown with bwrap by hand to see more, or set sandbox.mode to "off" to run commands unconfined';
}

const DROP = ['--cap-drop', 'ALL'];
const NO_USERNS = '--disable-userns';

/**
 * The hardening flags to try, best first. A command gets a user namespace of its own, no
 * capabilities, and (bubblewrap 0.8+) cannot make another user namespace, where it would have them
 * again. As root, bubblewrap would otherwise keep every capability (mount, remount, umount…), so
 * root runs as `nobody` (65534) inside, mapped to root outside: what it writes in a root is still
 * root's. Root never falls back to a list without the cap drop; an unprivileged user, who has no
 * capabilities to lose, falls back to none (an older or setuid bubblewrap).
 */
function hardeningCandidates(root: boolean): string[][] {
  const user = root ? ['--unshare-user', '--uid', '65534', '--gid', '65534'] : ['--unshare-user'];
  const candidates = [
    [...user, NO_USERNS, ...DROP],
    [...user, ...DROP],
  ];
  if (!root) candidates.push([]);
  return candidates;
}

/** The capabilities a process inside has, from /proc/self/status (0n when none). */
function effectiveCaps(status: string): bigint | undefined {
  const m = /^CapEff:\s*([0-9a-f]+)$/m.exec(status);
  return m ? BigInt(`0x${m[1]}`) : undefined;
}

async function tryFlags(bwrap: string, hardening: string[]) {
  const base = bwrapArgs({ roots: [], readOnly: true, network: false, writable: [], hidden: [], hardening, cwd: '/' });
  return run(bwrap, [...base, '--', programPath('cat'), '/proc/self/status']);
}

async function probe(bwrap: string): Promise<SandboxStatus> {
  if (process.platform !== 'linux')
    return {
      ok: false,
      bwrap,
      reason: `bubblewrap runs only on Linux (this is ${process.platform})`,
      hint: 'commands run without a sandbox here',
    };
  const found = findProgram(bwrap);
  if (!found)
    return {
      ok: false,
      bwrap,
      reason: `${bwrap} was not found${bwrap.includes('/') ? '' : ' in a fixed place on PATH'}`,
      hint: INSTALL,
    };
  const root = process.getuid?.() === 0;
  let last = { said: '', hint: INSTALL };
  for (const hardening of hardeningCandidates(root)) {
    const r = await tryFlags(found, hardening);
    if (r.error)
      return { ok: false, bwrap: found, reason: `${found} could not be started: ${r.error.message}`, hint: INSTALL };
    if (r.code !== 0) {
      const said = r.stderr.trim().split('\n').slice(-2).join(' ') || `exit code ${r.code}`;
      last = { said, hint: hintFor(said) };
      continue;
    }
    const caps = effectiveCaps(r.stdout);
    if (hardening.includes('--cap-drop') && caps !== 0n) {
      last = {
        said: `a command inside still had capabilities (CapEff ${caps?.toString(16) ?? 'unknown'})`,
        hint: UPGRADE,
      };
      continue;
    }
    const notes = [];
    if (!hardening.includes(NO_USERNS))
      notes.push(`this bubblewrap has no ${NO_USERNS} (older than 0.8): commands can create nested user namespaces`);
    if (!hardening.includes('--cap-drop'))
      notes.push('this bubblewrap did not take --cap-drop ALL (commands run without capabilities anyway: not root)');
    return { ok: true, bwrap: found, hardening, notes };
  }
  const why = root
    ? `as root it cannot build a sandbox without capabilities: ${last.said}`
    : `cannot build a sandbox here: ${last.said}`;
  return { ok: false, bwrap: found, reason: `${found} ${why}`, hint: root ? `${UPGRADE}; ${last.hint}` : last.hint };
}

export function probeSandbox(bwrap: string): Promise<SandboxStatus> {
  let hit = cache.get(bwrap);
  if (!hit) {
    hit = probe(bwrap);
    cache.set(bwrap, hit);
  }
  return hit;
}

/** bubblewrap's version line, for `toolbelt doctor`. */
export async function bwrapVersion(bwrap: string): Promise<string | undefined> {
  const found = findProgram(bwrap);
  if (!found) return undefined;
  const r = await run(found, ['--version']);
  return r.code === 0 ? r.stdout.trim() || undefined : undefined;
}
