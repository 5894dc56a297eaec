// Inside a sandbox that may write the workspace, the files git runs code from (.git/config,
// .git/hooks) and toolbelt's own config stay as they were, whatever channel a command tries:
// git config, >>, mv, tar -x, patch, replacing .git. Commits still work. The control runs the same
// attack without the pinned and read-only paths and changes .git/config.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bashInvocation } from '../process/limits.js';
import { bwrapInvocation } from './bwrap.js';
import { Sandbox } from './sandbox.js';
import { sandboxSettings } from './settings.js';
import { sandboxWorks } from './__fixtures__/available.js';
import { cleanupScratch, plant, runConfined, runInvocation, scratchDir } from './__fixtures__/confined.js';

afterAll(cleanupScratch);

const CONFIG = '{"mode":"safe"}\n';

function repo(): string {
  const ws = scratchDir('tb-pinned-');
  plant(ws, { 'a.txt': 'a\n', 'toolbelt.config.json': CONFIG });
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', ws, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
      encoding: 'utf8',
    });
  git('init', '-q');
  git('add', 'a.txt');
  git('commit', '-qm', 'first');
  return ws;
}

const ATTACK = `
git config core.fsmonitor 'touch /tmp/pwned'
echo '[core] hooksPath = /tmp' >> .git/config
mv .git/config .git/config.old; printf '[core]\\n\\tfsmonitor = evil\\n' > .git/config
mkdir -p /tmp/e/.git/hooks && echo evil > /tmp/e/.git/config && echo evil > /tmp/e/toolbelt.config.json && printf '#!/bin/sh\\n' > /tmp/e/.git/hooks/pre-commit
tar -C /tmp/e -cf /tmp/e.tar . && tar -xf /tmp/e.tar
cp .git/config /tmp/c && echo '[alias] x = !evil' >> /tmp/c && diff -u .git/config /tmp/c > /tmp/p; patch .git/config < /tmp/p
printf '#!/bin/sh\\n' > .git/hooks/pre-commit
mv toolbelt.config.json /tmp/x; echo '{"mode":"yolo"}' > toolbelt.config.json
mv .git .git-old && git init -q
true`;

describe.skipIf(!sandboxWorks)('git and toolbelt files in a writable root', () => {
  it('stay unchanged through git config, >>, mv, tar -x, patch and replacing .git; commits still work', async () => {
    const ws = repo();
    const before = readFileSync(join(ws, '.git', 'config'), 'utf8');
    const c = await new Sandbox(sandboxSettings(undefined)).confine({
      roots: [ws],
      cwd: ws,
      readOnly: false,
      network: false,
    });
    expect(c.bwrap!.profile.readOnlyPaths).toEqual(
      expect.arrayContaining([join(ws, '.git', 'config'), join(ws, '.git', 'hooks')]),
    );
    await runConfined(c, ATTACK);
    expect(readFileSync(join(ws, '.git', 'config'), 'utf8')).toBe(before);
    expect(readFileSync(join(ws, 'toolbelt.config.json'), 'utf8')).toBe(CONFIG);
    expect(existsSync(join(ws, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(existsSync(join(ws, '.git-old'))).toBe(false);
    const commit = await runConfined(
      c,
      'echo b > b.txt && git add b.txt && git -c user.name=t -c user.email=t@example.com commit -qm second && git log --format=%s',
    );
    expect(commit.stdout).toBe('second\nfirst\n');
  });

  it('control: without the pinned and read-only paths the same attack rewrites .git/config', async () => {
    const ws = repo();
    const before = readFileSync(join(ws, '.git', 'config'), 'utf8');
    const c = await new Sandbox(sandboxSettings(undefined)).confine({
      roots: [ws],
      cwd: ws,
      readOnly: false,
      network: false,
    });
    const bare = { ...c.bwrap!.profile, pinned: [], readOnlyPaths: [] };
    await runInvocation(bwrapInvocation(c.bwrap!.path, bare, bashInvocation(ATTACK)));
    expect(readFileSync(join(ws, '.git-old', 'config'), 'utf8')).not.toBe(before);
    expect(existsSync(join(ws, '.git-old', 'hooks', 'pre-commit'))).toBe(true);
  });
});
