// The git tools' own program and environment: git never comes from the workspace (a planted
// node_modules/.bin/git first on PATH, as `npx toolbelt` puts it), and git and whatever it
// starts see none of toolbelt's secrets.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetProgramChoices } from '../process/programs.js';
import { Sandbox } from '../sandbox/sandbox.js';
import { sandboxSettings } from '../sandbox/settings.js';
import { cleanup, harness, makeRepo, sh, tempDir, write } from './__fixtures__/repos.js';

afterAll(cleanup);

const saved = { ...process.env };
beforeEach(() => resetProgramChoices());
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
  resetProgramChoices();
});

describe('the git tools run toolbelt’s git', () => {
  it('never a node_modules/.bin/git (or bwrap, which runs it) planted in the workspace and put first on PATH', async () => {
    const repo = makeRepo();
    const marker = join(tempDir('toolbelt-marker-'), 'planted-git-ran');
    for (const name of ['git', 'bwrap']) {
      write(repo, `node_modules/.bin/${name}`, `#!/bin/sh\ntouch '${marker}'\nexit 0\n`);
      chmodSync(join(repo, `node_modules/.bin/${name}`), 0o755);
    }
    process.env.PATH = `${join(repo, 'node_modules/.bin')}${delimiter}${saved.PATH}`;

    // Control: a program started by name from this PATH is the planted one.
    execFileSync('git', ['--version'], { env: process.env });
    expect(existsSync(marker)).toBe(true);
    execFileSync('rm', [marker]);

    write(repo, 'a.txt', 'a\n');
    const h = harness(repo);
    const status = await h.call('git_status', {});
    expect(status.status).toBe('success');
    expect((await h.call('git_commit', { message: 'a', files: ['a.txt'] })).status).toBe('success');
    expect(existsSync(marker)).toBe(false);
  });
});

describe('git’s environment', () => {
  it('has no toolbelt token or key-like variable, as a program git starts sees it', async () => {
    process.env.TOOLBELT_GATEWAY_TOKEN = 'tb-gateway-secret';
    process.env.OPENAI_API_KEY = 'sk-test-secret';
    process.env.GITHUB_TOKEN = 'ghp-test-secret';
    process.env.TOOLBELT_KEEP_ME = 'kept';
    const repo = makeRepo();
    const dump = join(tempDir('toolbelt-env-'), 'env.txt');
    write(repo, '.gitattributes', 'a.txt filter=dump\n');
    write(repo, 'a.txt', 'a\n');
    sh(repo, 'add', '.');
    sh(repo, 'commit', '-q', '-m', 'a');
    write(repo, 'a.txt', 'changed\n');
    // The dump must run to show anything: no sandbox and no overrides, so the filter runs on the host.
    sh(repo, 'config', 'filter.dump.clean', `env > '${dump}'; cat`);
    const h = harness(repo, {
      tools: { sandbox: new Sandbox(sandboxSettings(undefined, { overrides: { mode: 'off' } })), guardConfig: false },
    });
    // git diff cleans the changed file to compare it.
    expect((await h.call('git_diff', {})).status).toBe('success');
    const env = readFileSync(dump, 'utf8');
    expect(env).toContain('TOOLBELT_KEEP_ME=kept');
    expect(env).not.toMatch(/secret/);
    expect(env).not.toMatch(/^(TOOLBELT_GATEWAY_TOKEN|OPENAI_API_KEY|GITHUB_TOKEN)=/m);
    expect(env).not.toMatch(/^PATH=.*node_modules/m);
  });
});
