// `toolbelt doctor` shows where bash, git, rg and bwrap come from, and the PATH entries it passed
// over: an executable planted in a node_modules/.bin first on PATH (as `npx` puts it) is listed as
// skipped, never chosen. PATH is set before anything in this process looks a program up.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resetProgramChoices } from '../../../tools/src/process/programs.js';
import { afterAll, describe, expect, it } from 'vitest';
import { runMain } from '../__fixtures__/run-main.js';

const base = mkdtempSync(join(tmpdir(), 'tb-doctor-programs-'));
const bin = join(base, 'node_modules', '.bin');
mkdirSync(bin, { recursive: true });
for (const name of ['bash', 'git', 'rg', 'bwrap']) {
  writeFileSync(join(bin, name), '#!/bin/sh\nexit 0\n');
  chmodSync(join(bin, name), 0o755);
}
const realPath = process.env.PATH;
process.env.PATH = `${bin}:${realPath}`;
resetProgramChoices();
afterAll(() => {
  process.env.PATH = realPath;
  rmSync(base, { recursive: true, force: true });
});

describe('toolbelt doctor and programs', () => {
  it('shows the paths chosen and the node_modules/.bin entry passed over', async () => {
    const config = join(base, 'config.json');
    writeFileSync(config, '{}');
    const r = await runMain(['doctor', '--root', base, '--config', config, '--json']);
    const checks = JSON.parse(r.out) as { name: string; summary: string; details?: string[] }[];
    for (const name of ['bash', 'git', 'ripgrep', 'sandbox']) {
      const check = checks.find((c) => c.name === name)!;
      expect(check.summary, name).not.toContain(bin);
      expect(check.details, name).toEqual(
        expect.arrayContaining([expect.stringContaining(`in ${bin} (inside node_modules)`)]),
      );
    }
  });
});
