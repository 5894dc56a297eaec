// The same hardening checks as an unprivileged user: run as root, these tests switch to nobody
// (setpriv) and confine scripts through the built @toolbelt/tools, as toolbelt running as that
// user would. The control drops the hardening flags and shows a nested user namespace working.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupScratch, marker, plant } from './__fixtures__/confined.js';
import {
  asNobody,
  callsAsNobody,
  giveToNobody,
  scriptsAsNobody,
  type ConfinedRun,
  NOBODY,
  nobodyDir,
  whyNotAsNobody as why,
} from './__fixtures__/nobody.js';

if (why) console.warn(`unprivileged sandbox tests skipped: ${why}`);

const SECRET = marker('env');
let ws: string;
let outside: string;
let home: string;

beforeAll(() => {
  if (why) return;
  ws = nobodyDir('tb-nobody-ws-');
  outside = nobodyDir('tb-nobody-out-');
  home = nobodyDir('tb-nobody-home-');
  plant(ws, { '.env': `${SECRET}\n`, id_rsa: `${SECRET}\n`, 'a.txt': 'a\n' });
  giveToNobody(ws);
});
afterAll(cleanupScratch);

const attack = () => `grep CapEff /proc/self/status; id -u
mount -o remount,rw,bind / 2>/dev/null && echo REMOUNTED
umount ${ws}/.env 2>/dev/null && echo UNMOUNTED
cat ${ws}/.env ${ws}/id_rsa /etc/shadow && echo READ-HIDDEN
unshare -Urm true 2>/dev/null && echo USERNS
touch ${outside}/escaped 2>/dev/null && echo WROTE
true`;

const confineAsNobody = (runs: ConfinedRun[]) => scriptsAsNobody({ roots: [ws], home, runs });

describe.skipIf(!!why)('the sandbox as an unprivileged user (nobody, via setpriv)', () => {
  it('keeps its own uid, drops capabilities and takes --disable-userns', () => {
    const report = confineAsNobody([]);
    expect(report.uid).toBe(NOBODY);
    expect(report.status.ok).toBe(true);
    expect(report.status.hardening).toEqual(['--unshare-user', '--disable-userns', '--cap-drop', 'ALL']);
  });

  it('has no capabilities, no remount, no user namespace, no write outside, and reads hidden files as empty, in every profile', () => {
    const runs = [true, false].flatMap((readOnly) =>
      [false, true].map((network) => ({ readOnly, network: network && !readOnly, script: attack() })),
    );
    const report = confineAsNobody(runs);
    for (const r of report.results) {
      expect(r.stdout).toMatch(new RegExp(`^CapEff:\\s+0+\\n${NOBODY}\\n`));
      for (const word of ['REMOUNTED', 'UNMOUNTED', 'USERNS', 'WROTE']) expect(r.stdout).not.toContain(word);
      expect(r.stdout, r.stderr).toContain('READ-HIDDEN'); // /etc/shadow and the secrets read, as empty files
      expect(r.stdout + r.stderr).not.toContain(SECRET);
    }
    expect(existsSync(join(outside, 'escaped'))).toBe(false);
  });

  it('control: without the hardening flags a nested user namespace works, and outside the sandbox the write does', () => {
    const [bare] = confineAsNobody([{ readOnly: true, network: false, script: attack(), bare: true }]).results;
    expect(bare.stdout).toContain('USERNS');
    expect(asNobody('/usr/bin/touch', [join(outside, 'escaped')], { cwd: ws }).status).toBe(0);
    expect(existsSync(join(outside, 'escaped'))).toBe(true);
  });

  it("runs commands with a HOME it may not read (root's, which setpriv and runuser keep), hiding the secrets still", () => {
    // Found here: ~/.ssh and the other hidden home paths were looked at with lstat, which threw EACCES.
    const [r] = callsAsNobody(
      { root: ws, tools: ['shell'], calls: [{ tool: 'shell_exec', input: { command: 'id -u; cat .env a.txt' } }] },
      { ...process.env, HOME: '/root' },
    );
    expect(r.status, r.text).toBe('success');
    expect(r.text).toBe(`${NOBODY}\na\n[exit code 0]`);
  });
});
