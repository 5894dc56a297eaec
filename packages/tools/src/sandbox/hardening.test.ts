// As whoever runs the tests (root in CI): a sandboxed command has no capabilities in any profile,
// cannot remount the read-only file system, unmount a hidden path or make a user namespace of its
// own, and writes nothing outside the roots. The controls build the same sandbox without the
// hardening flags and show the attack working there, so these tests can fail.
import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bashInvocation } from '../process/limits.js';
import { bwrapInvocation } from './bwrap.js';
import { probeSandbox } from './probe.js';
import { Sandbox, type ConfineRequest } from './sandbox.js';
import { sandboxSettings } from './settings.js';
import { sandboxWorks } from './__fixtures__/available.js';
import { cleanupScratch, marker, plant, runConfined, runInvocation, scratchDir } from './__fixtures__/confined.js';

const isRoot = process.getuid?.() === 0;
const SECRET = marker('env');
let ws: string;
let outside: string;
let sandbox: Sandbox;

beforeAll(() => {
  ws = scratchDir('tb-hard-ws-');
  outside = scratchDir('tb-hard-out-');
  plant(ws, { '.env': `${SECRET}\n`, 'a.txt': 'a\n' });
  sandbox = new Sandbox(sandboxSettings(undefined, { env: { HOME: scratchDir('tb-hard-home-') } }));
});
afterAll(cleanupScratch);

/** Tries every way out a capability or a user namespace would give; prints what worked. */
const attack = () => `grep CapEff /proc/self/status
mount -o remount,rw,bind / 2>/dev/null && echo REMOUNTED
umount ${ws}/.env 2>/dev/null && echo UNMOUNTED
umount -l ${ws}/.env 2>/dev/null && echo UNMOUNTED
cat ${ws}/.env /etc/shadow && echo READ-HIDDEN
unshare -Urm true 2>/dev/null && echo USERNS
touch ${outside}/escaped 2>/dev/null && echo WROTE
true`;

const profiles: [string, Omit<ConfineRequest, 'roots'>][] = [
  ['read-only', { readOnly: true, network: false }],
  ['workspace-write', { readOnly: false, network: false }],
  ['workspace-write with the network', { readOnly: false, network: true }],
];

describe.skipIf(!sandboxWorks)(`the sandbox's hardening (${isRoot ? 'as root' : 'as an unprivileged user'})`, () => {
  it('takes the flags that drop every capability (as root, running as nobody inside)', async () => {
    const status = await probeSandbox('bwrap');
    expect(status.ok && status.hardening).toEqual(
      expect.arrayContaining(['--unshare-user', '--cap-drop', 'ALL', '--disable-userns']),
    );
    if (isRoot) expect(status.ok && status.hardening.join(' ')).toContain('--uid 65534 --gid 65534');
  });

  it.each(profiles)(
    '%s: no capabilities, no remount, no unmount, no user namespace, no write outside',
    async (_name, req) => {
      const c = await sandbox.confine({ roots: [ws], cwd: ws, ...req });
      const r = await runConfined(c, attack());
      expect(r.stdout).toMatch(/^CapEff:\s+0+$/m);
      for (const word of ['REMOUNTED', 'UNMOUNTED', 'USERNS', 'WROTE']) expect(r.stdout).not.toContain(word);
      expect(r.stdout, r.stderr).toContain('READ-HIDDEN'); // as empty files
      expect(r.out).not.toContain(SECRET);
      expect(r.out).not.toMatch(/^root:/m);
      expect(existsSync(join(outside, 'escaped'))).toBe(false);
    },
  );

  it("writes in a root land on the host as the user's own files", async () => {
    const c = await sandbox.confine({ roots: [ws], cwd: ws, readOnly: false, network: false });
    expect((await runConfined(c, 'echo made > made.txt && id -u')).code).toBe(0);
    expect(statSync(join(ws, 'made.txt')).uid).toBe(process.getuid!());
  });

  it.runIf(isRoot)(
    'control, as root: without the hardening flags a command keeps every capability and writes on the host',
    async () => {
      const c = await sandbox.confine({ roots: [ws], cwd: ws, readOnly: true, network: false });
      const bare = bwrapInvocation(c.bwrap!.path, { ...c.bwrap!.profile, hardening: [] }, bashInvocation(attack()));
      const r = await runInvocation(bare);
      try {
        expect(r.stdout).not.toMatch(/^CapEff:\s+0+$/m);
        expect(r.stdout).toContain('REMOUNTED');
        expect(r.stdout).toContain('WROTE');
        expect(r.stdout).toContain('UNMOUNTED');
        expect(r.out).toContain(SECRET);
        expect(existsSync(join(outside, 'escaped'))).toBe(true);
      } finally {
        rmSync(join(outside, 'escaped'), { force: true });
      }
    },
  );

  it.runIf(!isRoot)('control, unprivileged: without --disable-userns a command can make a user namespace', async () => {
    const c = await sandbox.confine({ roots: [ws], cwd: ws, readOnly: true, network: false });
    const bare = bwrapInvocation(c.bwrap!.path, { ...c.bwrap!.profile, hardening: [] }, bashInvocation(attack()));
    expect((await runInvocation(bare)).stdout).toContain('USERNS');
  });
});
