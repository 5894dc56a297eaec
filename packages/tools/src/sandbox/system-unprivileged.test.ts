// system.test.ts's local sockets as an unprivileged user: PostgreSQL's socket is connectable by
// anyone (srwxrwxrwx), so nobody (65534) reaches it on the host (the control), and in every profile
// of the built package's sandbox, with or without the network, nobody's connect finds nothing there.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupScratch, plant } from './__fixtures__/confined.js';
import { asNobody, giveToNobody, nobodyDir, scriptsAsNobody, whyNotAsNobody } from './__fixtures__/nobody.js';

const PG_SOCKET = '/var/run/postgresql/.s.PGSQL.5432';
const hasPg = existsSync(PG_SOCKET);
if (!hasPg && process.env.TOOLBELT_REQUIRE_PG === '1')
  throw new Error(`TOOLBELT_REQUIRE_PG=1 but there is no PostgreSQL socket at ${PG_SOCKET}`);
const why = whyNotAsNobody ?? (hasPg ? undefined : `no PostgreSQL socket at ${PG_SOCKET}`);
if (why) console.warn(`unprivileged socket tests skipped: ${why}`);

/** Connects to the socket from Node: CONNECTED, or the error code. */
const connect = `require('net').connect('${PG_SOCKET}').on('connect', () => { console.log('CONNECTED'); process.exit(0) }).on('error', (e) => { console.log(e.code); process.exit(3) })`;
let ws: string;
let home: string;

beforeAll(() => {
  if (why) return;
  ws = nobodyDir('tb-nobody-sock-ws-');
  home = nobodyDir('tb-nobody-sock-home-');
  plant(ws, { 'a.txt': 'a\n' });
  giveToNobody(ws);
});
afterAll(cleanupScratch);

describe.skipIf(!!why)('local sockets, as an unprivileged user (nobody, via setpriv)', () => {
  it('control: outside the sandbox, nobody connects to the PostgreSQL socket', () => {
    const r = asNobody(process.execPath, ['-e', connect], { cwd: ws });
    expect(r.stdout, r.stderr).toBe('CONNECTED\n');
  });

  it('in every profile, with or without the network, the connect finds no socket (ENOENT)', () => {
    const profiles: [boolean, boolean][] = [
      [true, false],
      [false, false],
      [false, true],
    ];
    const script = `id -u; ${JSON.stringify(process.execPath)} -e ${JSON.stringify(connect)}; echo "exit $?"`;
    const report = scriptsAsNobody({
      roots: [ws],
      home,
      runs: profiles.map(([readOnly, network]) => ({ readOnly, network, script })),
    });
    expect(report.results.map((r) => r.profile)).toEqual(['read-only', 'workspace-write', 'workspace-write']);
    for (const r of report.results) expect(r.stdout, `${r.profile}: ${r.stderr}`).toBe('65534\nENOENT\nexit 3\n');
  });
});
