// What the sandbox takes from the rest of the machine: files only root reads (in every profile),
// other users' homes (for a read), and the local services' sockets under /run (in every profile,
// but for those sandbox.sockets keeps). Each check has its control outside the sandbox.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox } from './sandbox.js';
import { sandboxSettings } from './settings.js';
import { sandboxWorks } from './__fixtures__/available.js';
import { cleanupScratch, marker, plant, runConfined, runInvocation, scratchDir } from './__fixtures__/confined.js';

const isRoot = process.getuid?.() === 0;
const PG_DIR = '/var/run/postgresql';
const PG_SOCKET = join(PG_DIR, '.s.PGSQL.5432');
const hasPg = existsSync(PG_SOCKET);
if (!hasPg && process.env.TOOLBELT_REQUIRE_PG === '1')
  throw new Error(`TOOLBELT_REQUIRE_PG=1 but there is no PostgreSQL socket at ${PG_SOCKET}`);
if (!hasPg) console.warn(`the PostgreSQL socket checks are skipped: no socket at ${PG_SOCKET}`);

const OTHER = marker('other-home');
const MINE = marker('my-home');
let ws: string;
let homes: string;

beforeAll(() => {
  homes = scratchDir('tb-homes-');
  plant(homes, { 'other/notes.txt': `${OTHER}\n`, 'ann/notes.txt': `${MINE}\n`, 'bob/work/a.txt': 'a\n' });
  ws = join(homes, 'bob', 'work');
});
afterAll(cleanupScratch);

const sandboxFor = (section: Record<string, unknown> = {}) =>
  new Sandbox(sandboxSettings(section, { env: { HOME: join(homes, 'ann') } }), { homes: [homes] });
/** Connects to the PostgreSQL socket from Node: CONNECTED, or the error code. */
const connect = `node -e "require('net').connect('${PG_SOCKET}').on('connect', () => { console.log('CONNECTED'); process.exit(0) }).on('error', (e) => { console.log(e.code); process.exit(3) })"`;

describe.skipIf(!sandboxWorks)('the machine around the sandbox', () => {
  it.each([true, false])('shows files only root reads as empty (readOnly: %s)', async (readOnly) => {
    const c = await sandboxFor().confine({ roots: [ws], cwd: ws, readOnly, network: false });
    const r = await runConfined(
      c,
      'cat /etc/shadow /etc/gshadow; ls -A /etc/sudoers.d 2>/dev/null | wc -l; ls /etc/ssh 2>/dev/null | grep -c _key$ ; cat /etc/ssh/ssh_host_*_key 2>/dev/null',
    );
    expect(r.out).not.toMatch(/^root:/m);
    expect(r.out).not.toContain('PRIVATE KEY');
    expect(c.hidden).toEqual(expect.arrayContaining(['/etc/shadow', '/etc/gshadow'].filter(existsSync)));
    // Control: root reads them outside.
    if (isRoot) expect(readFileSync('/etc/shadow', 'utf8')).toMatch(/^root:/m);
  });

  it("hides other users' homes from a read, but not the user's own or one holding a root", async () => {
    const read = await sandboxFor().confine({ roots: [ws], cwd: ws, readOnly: true, network: false });
    const cmd = `cat ${homes}/other/notes.txt ${homes}/ann/notes.txt; ls ${homes}/bob`;
    const r = await runConfined(read, cmd);
    expect(r.out).not.toContain(OTHER);
    expect(r.out).toContain(MINE);
    expect(r.out).toContain('work');
    expect(read.hidden).toContain(join(homes, 'other'));
    // Control: a command that may write still sees them (only reads lose them).
    const write = await sandboxFor().confine({ roots: [ws], cwd: ws, readOnly: false, network: false });
    expect((await runConfined(write, cmd)).out).toContain(OTHER);
  });

  it.each([true, false])('empties /run (readOnly: %s)', async (readOnly) => {
    const c = await sandboxFor().confine({ roots: [ws], cwd: ws, readOnly, network: false });
    expect((await runConfined(c, 'ls -A /run /var/run; echo done')).stdout).toBe('/run:\n\n/var/run:\ndone\n');
  });

  it('keeps DNS working when a command has the network', async () => {
    const c = await sandboxFor().confine({ roots: [ws], cwd: ws, readOnly: false, network: true });
    expect((await runConfined(c, 'cat /etc/resolv.conf')).stdout).toBe(readFileSync('/etc/resolv.conf', 'utf8'));
  });

  describe.skipIf(!hasPg)('the PostgreSQL socket', () => {
    it('is out of reach in every profile, with or without the network; reachable outside (control)', async () => {
      for (const [readOnly, network] of [
        [true, false],
        [false, false],
        [false, true],
      ]) {
        const c = await sandboxFor().confine({ roots: [ws], cwd: ws, readOnly, network });
        const r = await runConfined(
          c,
          `${connect}; psql -h ${PG_DIR} -U postgres -c 'select 1' 2>&1 || echo PSQL-FAILED`,
        );
        expect(r.stdout).toMatch(/^ENOENT$/m);
        expect(r.stdout).toContain('PSQL-FAILED');
      }
      expect((await runInvocation({ file: '/bin/bash', args: ['-c', connect] })).stdout).toBe('CONNECTED\n');
    });

    it('is reachable when sandbox.sockets keeps it', async () => {
      const c = await sandboxFor({ sockets: [PG_DIR] }).confine({
        roots: [ws],
        cwd: ws,
        readOnly: false,
        network: false,
      });
      const r = await runConfined(c, `${connect}; psql -h ${PG_DIR} -U postgres -At -c 'select 41+1'`);
      expect(r.stdout).toBe('CONNECTED\n42\n');
    });
  });
});
