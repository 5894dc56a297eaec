// Whether bubblewrap works here: found, and able to build the very sandbox commands get (user,
// network and pid namespaces, /proc, tmpfs). Tried once per binary and process; the answer says
// why not and what would fix it.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { trustedProgram } from '../process/programs.js';
import { bwrapArgs } from './bwrap.js';

export type SandboxStatus = { ok: true; bwrap: string } | { ok: false; bwrap: string; reason: string; hint: string };

const cache = new Map<string, Promise<SandboxStatus>>();

/** The absolute path of a program: as given when it has a slash, else the first match on PATH. */
export function findProgram(name: string, path = process.env.PATH ?? ''): string | undefined {
  const candidates = name.includes('/')
    ? [name]
    : path
        .split(delimiter)
        .filter(isAbsolute)
        .map((dir) => join(dir, name));
  for (const c of candidates) {
    try {
      accessSync(c, constants.X_OK);
      return c;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

function run(file: string, args: string[]): Promise<{ code: number | null; stderr: string; error?: Error }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.once('error', (error) => resolve({ code: null, stderr, error }));
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

/** bubblewrap by name from a fixed place on PATH (never the workspace's node_modules/.bin), or a configured path. */
function locate(bwrap: string): string | undefined {
  return bwrap.includes('/') ? findProgram(bwrap) : trustedProgram(bwrap);
}

const INSTALL = 'install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap)';

/** What to do about a bwrap error message. */
export function hintFor(stderr: string): string {
  if (/No permissions to creat|setting up uid map|uid_map|user namespace|Operation not permitted|Permission denied/i.test(stderr)) {
    return 'unprivileged user namespaces are off or restricted here: allow them (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 23.10+ an AppArmor profile for bwrap, or sysctl kernel.apparmor_restrict_unprivileged_userns=0), or inside a container run it with user namespaces allowed';
  }
  if (/proc/i.test(stderr)) return 'the container does not allow mounting /proc in a new namespace: run it with a less restrictive seccomp/AppArmor profile';
  return 'run the command shown with bwrap by hand to see more, or set sandbox.mode to "off" to run commands unconfined';
}

async function probe(bwrap: string): Promise<SandboxStatus> {
  if (process.platform !== 'linux')
    return { ok: false, bwrap, reason: `bubblewrap runs only on Linux (this is ${process.platform})`, hint: 'commands run without a sandbox here' };
  const found = locate(bwrap);
  if (!found) return { ok: false, bwrap, reason: `${bwrap} was not found${bwrap.includes('/') ? '' : ' on PATH'}`, hint: INSTALL };
  const r = await run(found, [...bwrapArgs({ roots: [], readOnly: true, network: false, writable: [], hidden: [], cwd: '/' }), '--', 'true']);
  if (r.error) return { ok: false, bwrap: found, reason: `${found} could not be started: ${r.error.message}`, hint: INSTALL };
  if (r.code !== 0) {
    const said = r.stderr.trim().split('\n').slice(-2).join(' ') || `exit code ${r.code}`;
    return { ok: false, bwrap: found, reason: `${found} cannot build a sandbox here: ${said}`, hint: hintFor(said) };
  }
  return { ok: true, bwrap: found };
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
  const found = locate(bwrap);
  if (!found) return undefined;
  return new Promise((resolve) => {
    const child = spawn(found, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.once('error', () => resolve(undefined));
    child.once('close', () => resolve(out.trim() || undefined));
  });
}
