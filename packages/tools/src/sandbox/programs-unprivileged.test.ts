// programs.test.ts and git/programs.test.ts as an unprivileged user: toolbelt running as nobody
// (65534, the built package) with the workspace's node_modules/.bin first on PATH, as `npx` puts
// it, never runs a planted git, bwrap, bash or rg — not from git_status, shell_exec or grep. The
// markers would land in the workspace, which the host and a writable sandbox both see. Control:
// the planted programs, started by name from that PATH as nobody, do leave their markers.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupScratch, plant } from './__fixtures__/confined.js';
import { asNobody, callsAsNobody, giveToNobody, nobodyDir, whyNotAsNobody } from './__fixtures__/nobody.js';

if (whyNotAsNobody) console.warn(`unprivileged program tests skipped: ${whyNotAsNobody}`);

const NAMES = ['git', 'bwrap', 'bash', 'rg'];
let ws: string;
let bin: string;
let env: Record<string, string | undefined>;
const ranMarker = (name: string) => join(ws, `ran-${name}`);
const ran = () => NAMES.filter((n) => existsSync(ranMarker(n)));

beforeAll(() => {
  if (whyNotAsNobody) return;
  ws = nobodyDir('tb-nobody-programs-');
  bin = join(ws, 'node_modules', '.bin');
  plant(ws, {
    'a.txt': 'needle\n',
    ...Object.fromEntries(NAMES.map((n) => [`node_modules/.bin/${n}`, `#!/bin/sh\ntouch ${ranMarker(n)}\nexit 0\n`])),
  });
  for (const n of NAMES) chmodSync(join(bin, n), 0o755);
  execFileSync('git', ['init', '-q', ws]);
  giveToNobody(ws);
  env = { PATH: `${bin}:${process.env.PATH}`, HOME: ws, LANG: 'C.UTF-8' };
});
afterAll(cleanupScratch);

describe.skipIf(!!whyNotAsNobody)('programs from fixed places, as an unprivileged user (nobody, via setpriv)', () => {
  it('never runs the planted git, bwrap, bash or rg: git_status, shell_exec, grep all succeed', () => {
    const results = callsAsNobody(
      {
        root: ws,
        tools: ['git', 'shell', 'grep'],
        calls: [
          { tool: 'git_status', input: {} },
          { tool: 'shell_exec', input: { command: 'id -u; echo hi' } },
          { tool: 'grep', input: { pattern: 'needle', glob: '*.txt' } },
        ],
      },
      env,
    );
    for (const r of results) expect(r.status, `${r.tool}: ${r.text}`).toBe('success');
    expect(results[0].text).toContain('a.txt'); // untracked
    expect(results[1].text).toBe('65534\nhi\n[exit code 0]');
    expect(results[2].text).toContain('1:needle');
    expect(ran()).toEqual([]);
  });

  it('control: started by name from that PATH as nobody, each planted program leaves its marker', () => {
    for (const name of NAMES) expect(asNobody('/usr/bin/env', [name], { cwd: ws, env }).status, name).toBe(0);
    expect(ran()).toEqual(NAMES);
  });
});
