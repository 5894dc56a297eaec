// bwrap, bash and rg come from fixed places: an executable of the same name planted in a
// node_modules/.bin put first on PATH (what `npx` does with the workspace's) is never run, not by
// the probe, not by a sandboxed command, not by grep. Lookups are kept per process, so PATH is set
// before anything looks a program up.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { textOf } from '@toolbelt/core';
import { afterAll, describe, expect, it } from 'vitest';
import { programChoice, resetProgramChoices } from '../process/programs.js';
import { makeHarness } from '../fs/__fixtures__/harness.js';
import { findRg } from '../search/engine.js';
import { createGrep } from '../search/grep.js';
import { cleanupWorkspaces, harness } from '../shell/__fixtures__/harness.js';
import { probeSandbox } from './probe.js';
import { Sandbox } from './sandbox.js';
import { sandboxSettings } from './settings.js';
import { cleanupScratch, runConfined, scratchDir } from './__fixtures__/confined.js';

const planted = scratchDir('tb-planted-');
const bin = join(planted, 'node_modules', '.bin');
mkdirSync(bin, { recursive: true });
const NAMES = ['bwrap', 'bash', 'rg'];
const ranMarker = (name: string) => join(planted, `ran-${name}`);
for (const name of NAMES) {
  writeFileSync(join(bin, name), `#!/bin/sh\ntouch ${ranMarker(name)}\nexit 0\n`);
  chmodSync(join(bin, name), 0o755);
}
const realPath = process.env.PATH;
process.env.PATH = `${bin}:${realPath}`;
resetProgramChoices();

afterAll(() => {
  process.env.PATH = realPath;
  cleanupWorkspaces();
  cleanupScratch();
});

const ran = () => NAMES.filter((n) => existsSync(ranMarker(n)));

describe('programs from fixed places', () => {
  it('passes over the planted node_modules/.bin and says so', () => {
    for (const name of NAMES) {
      const choice = programChoice(name);
      expect(choice.path, name).toMatch(new RegExp(`^/(usr/)?(local/)?s?bin/${name}$`));
      expect(choice.skipped).toEqual([`${bin} (inside node_modules)`]);
    }
    expect(findRg()).toBe(programChoice('rg').path);
  });

  it('never runs the planted bwrap or bash: probe, sandboxed command, shell tool', async () => {
    const status = await probeSandbox('bwrap');
    expect(status.bwrap).not.toContain(planted);
    if (status.ok) {
      const c = await new Sandbox(sandboxSettings(undefined)).confine({
        roots: [planted],
        cwd: planted,
        readOnly: true,
        network: false,
      });
      expect((await runConfined(c, 'echo inside')).stdout).toBe('inside\n');
    }
    const h = harness({ mode: 'yolo' });
    expect(textOf(await h.call('shell_exec', { command: 'echo hi' }))).toBe('hi\n[exit code 0]');
    expect(ran()).toEqual([]);
  });

  it('never runs the planted rg from grep', async () => {
    const h = makeHarness([createGrep({ engine: 'rg' })]);
    try {
      h.write('a.txt', 'needle\n');
      expect(h.text(await h.call('grep', { pattern: 'needle' }))).toContain('1:needle');
      expect(ran()).toEqual([]);
    } finally {
      h.close();
    }
  });

  it('control: the planted programs do leave their marker when run', () => {
    for (const name of NAMES) spawnSync(join(bin, name));
    expect(ran()).toEqual(NAMES);
  });
});
