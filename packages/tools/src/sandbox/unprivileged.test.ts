// The same hardening checks as an unprivileged user: run as root, these tests switch to nobody
// (setpriv) and confine scripts through the built @toolbelt/tools, as toolbelt running as that
// user would. The control drops the hardening flags and shows a nested user namespace working.
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustedProgram } from '../process/programs.js';
import { sandboxWorks } from './__fixtures__/available.js';
import { cleanupScratch, marker, plant, scratchDir } from './__fixtures__/confined.js';

const NOBODY = 65534;
const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', '..', 'dist');
const setpriv = trustedProgram('setpriv');
const asNobody = (file: string, args: string[], cwd: string) =>
  spawnSync(setpriv!, [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', file, ...args], { encoding: 'utf8', cwd, timeout: 60_000 });

/** Why these tests cannot run here, or undefined. Unprivileged user namespaces are tried, not assumed. */
function cannotRun(): string | undefined {
  if (process.getuid?.() !== 0) return 'not root: the other sandbox tests already run as an unprivileged user';
  if (!setpriv) return 'setpriv (util-linux) is not installed';
  const r = asNobody(trustedProgram('bwrap') ?? 'bwrap', ['--unshare-user', '--ro-bind', '/', '/', '--', '/bin/true'], '/');
  if (r.status !== 0) return `unprivileged user namespaces do not work here: ${r.stderr.trim()}`;
  return undefined;
}

/** A built module older than its source (the sandbox and what it uses): the test would prove nothing about it. */
function staleDist(): string | undefined {
  for (const dir of ['sandbox', 'process', 'workspace']) {
    for (const name of readdirSync(join(here, '..', dir)).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
      const built = join(dist, dir, name.replace(/\.ts$/, '.js'));
      if (!existsSync(built) || statSync(built).mtimeMs < statSync(join(here, '..', dir, name)).mtimeMs) return built;
    }
  }
  return undefined;
}

const why = sandboxWorks ? cannotRun() : 'the sandbox does not work here';
if (why) console.warn(`unprivileged sandbox tests skipped: ${why}`);

const SECRET = marker('env');
let ws: string;
let outside: string;
let home: string;

beforeAll(() => {
  ws = scratchDir('tb-nobody-ws-');
  outside = scratchDir('tb-nobody-out-');
  home = scratchDir('tb-nobody-home-');
  plant(ws, { '.env': `${SECRET}\n`, id_rsa: `${SECRET}\n`, 'a.txt': 'a\n' });
  for (const dir of [ws, outside, home]) {
    chownSync(dir, NOBODY, NOBODY);
    for (const f of readdirSync(dir)) chownSync(join(dir, f), NOBODY, NOBODY);
  }
});
afterAll(cleanupScratch);

const attack = () => `grep CapEff /proc/self/status; id -u
mount -o remount,rw,bind / 2>/dev/null && echo REMOUNTED
umount ${ws}/.env 2>/dev/null && echo UNMOUNTED
cat ${ws}/.env ${ws}/id_rsa /etc/shadow && echo READ-HIDDEN
unshare -Urm true 2>/dev/null && echo USERNS
touch ${outside}/escaped 2>/dev/null && echo WROTE
true`;

interface Report {
  uid: number;
  status: { ok: boolean; hardening?: string[] };
  results: { profile: string; code: number; stdout: string; stderr: string }[];
}

function confineAsNobody(runs: { readOnly: boolean; network: boolean; script: string; bare?: boolean }[]): Report {
  const stale = staleDist();
  if (stale) throw new Error(`${stale} is older than its source: run \`npm run build\` first (this test runs the built package as another user)`);
  const r = asNobody(process.execPath, [join(here, '__fixtures__', 'unprivileged.mjs'), dist, JSON.stringify({ roots: [ws], home, runs })], ws);
  if (r.status !== 0) throw new Error(`the runner failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as Report;
}

describe.skipIf(!!why)('the sandbox as an unprivileged user (nobody, via setpriv)', () => {
  it('keeps its own uid, drops capabilities and takes --disable-userns', () => {
    const report = confineAsNobody([]);
    expect(report.uid).toBe(NOBODY);
    expect(report.status.ok).toBe(true);
    expect(report.status.hardening).toEqual(['--unshare-user', '--disable-userns', '--cap-drop', 'ALL']);
  });

  it('has no capabilities, no remount, no user namespace, no write outside, and reads hidden files as empty, in every profile', () => {
    const runs = [true, false].flatMap((readOnly) => [false, true].map((network) => ({ readOnly, network: network && !readOnly, script: attack() })));
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
    expect(asNobody('/usr/bin/touch', [join(outside, 'escaped')], ws).status).toBe(0);
    expect(existsSync(join(outside, 'escaped'))).toBe(true);
  });
});
