import { chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, harness, makeRepo, sh, write } from './__fixtures__/repos.js';
import { configEnv, guardConfig, parseListing } from './config-guard.js';

afterAll(cleanup);

describe("a repository's own config runs nothing through the git tools", () => {
  it('git_status, git_diff and git_commit run no clean filter, textconv, fsmonitor or hook the repository defines', async () => {
    const repo = makeRepo();
    const mark = (name: string) => `touch ${join(repo, name)}; cat`;
    sh(repo, 'config', 'filter.evil.clean', mark('CLEAN_RAN'));
    sh(repo, 'config', 'diff.evil.textconv', mark('TEXTCONV_RAN'));
    sh(repo, 'config', 'core.fsmonitor', mark('FSMONITOR_RAN'));
    write(repo, '.git/hooks/pre-commit', `#!/bin/sh\ntouch ${join(repo, 'HOOK_RAN')}\n`);
    // Executable, so git would run it if nothing stopped it.
    chmodSync(join(repo, '.git/hooks/pre-commit'), 0o755);
    write(repo, '.gitattributes', '* filter=evil diff=evil\n');
    write(repo, 'a.txt', 'a\n');
    const h = harness(repo, { mode: 'yolo' });
    expect((await h.call('git_status', {})).status).toBe('success');
    await h.call('git_diff', {});
    const commit = await h.call('git_commit', { message: 'add a', files: ['a.txt'] });
    expect(commit.status, JSON.stringify(commit.error)).toBe('success');
    for (const ran of ['CLEAN_RAN', 'TEXTCONV_RAN', 'FSMONITOR_RAN', 'HOOK_RAN'])
      expect(existsSync(join(repo, ran)), ran).toBe(false);
  });
});

describe('which overrides a listing of the config gives', () => {
  const e = (scope: string, key: string, value?: string) => ({ scope, key, value });

  it('reads git config --list --show-scope -z, a key without a value included', () => {
    expect(
      parseListing(
        'global\0user.name\nA B\0local\0core.bare\nfalse\0local\0filter.a=b.clean\ntouch x \n; cat\0worktree\0core.weird\0',
      ),
    ).toEqual([
      e('global', 'user.name', 'A B'),
      e('local', 'core.bare', 'false'),
      e('local', 'filter.a=b.clean', 'touch x \n; cat'),
      e('worktree', 'core.weird'),
    ]);
  });

  it("neutralises what the repository's scopes set, puts the user's own value back, and leaves the user's alone", () => {
    const g = guardConfig([
      e('global', 'filter.lfs.clean', 'git-lfs clean -- %f'),
      e('global', 'credential.helper', 'store'),
      e('global', 'core.sshcommand', 'ssh -i key'),
      e('local', 'filter.lfs.clean', 'evil'),
      e('local', 'filter.x.clean', 'evil'),
      e('local', 'filter.x.required', 'true'),
      e('worktree', 'credential.https://h.example.helper', 'evil'),
      e('local', 'credential.helper', 'evil'),
      e('local', 'remote.origin.receivepack', 'evil'),
      e('local', 'remote.origin.url', '/elsewhere'),
      e('local', 'core.gitproxy', 'evil'),
    ]);
    expect(g.overrides).toEqual([
      ['filter.lfs.clean', 'git-lfs clean -- %f'],
      ['filter.x.clean', ''],
      ['filter.x.required', 'false'],
      ['credential.https://h.example.helper', ''],
      ['credential.helper', ''],
      ['credential.helper', 'store'],
      ['remote.origin.receivepack', 'git-receive-pack'],
    ]);
    expect(g.env).toEqual({ GIT_PROXY_COMMAND: '' });
    expect(
      guardConfig([e('global', 'core.sshcommand', 'ssh -i key'), e('system', 'filter.x.clean', 'x')]).overrides,
    ).toEqual([]);
  });

  it('passes keys and values apart, so a subsection with = in it is the one overridden', () => {
    expect(configEnv([['filter.a=b.clean', '']])).toEqual({
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'filter.a=b.clean',
      GIT_CONFIG_VALUE_0: '',
    });
  });
});
