import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { textOf } from '@toolbelt/core';
import { addBareRemote, cleanup, harness, makeRepo, sh, tempDir, write } from './__fixtures__/repos.js';
import { gitEnv } from './run.js';

afterAll(cleanup);

describe('git_status', () => {
  it('lists staged, unstaged, untracked and renamed files with root-relative paths', async () => {
    const repo = makeRepo();
    write(repo, 'src/a.ts', 'export const a = 1;\n');
    write(repo, 'old name.txt', 'x\n');
    sh(repo, 'add', '.');
    sh(repo, 'commit', '-q', '-m', 'files');
    write(repo, 'src/a.ts', 'export const a = 2;\n');
    sh(repo, 'mv', 'old name.txt', 'new name.txt');
    write(repo, 'README.md', '# changed\n');
    sh(repo, 'add', 'README.md');
    write(repo, 'notes.txt', 'todo\n');

    const r = await harness(repo).call('git_status', {});
    expect(r.status).toBe('success');
    const text = textOf(r);
    expect(text).toContain('On branch main, no upstream');
    expect(text).toMatch(/Staged \(2\):\n(.*\n)*\s+modified: README.md/);
    expect(text).toContain('renamed: old name.txt -> new name.txt');
    expect(text).toMatch(/Not staged \(1\):\n\s+modified: src\/a.ts/);
    expect(text).toMatch(/Untracked \(1\):\n\s+notes.txt/);
  });

  it('says the tree is clean and reports ahead/behind against the upstream', async () => {
    const repo = makeRepo();
    addBareRemote(repo);
    const h = harness(repo);
    expect(textOf(await h.call('git_status', {}))).toBe(
      'On branch main, tracking origin/main (up to date)\nWorking tree clean.',
    );
    write(repo, 'b.txt', 'b\n');
    sh(repo, 'add', 'b.txt');
    sh(repo, 'commit', '-q', '-m', 'b');
    const r = await h.call('git_status', {});
    expect(textOf(r)).toContain('tracking origin/main (ahead 1, behind 0)');
    expect(r.metadata).toMatchObject({ head: 'main', upstream: 'origin/main', ahead: 1, behind: 0 });
  });

  it('limits the status to a path', async () => {
    const repo = makeRepo();
    write(repo, 'a/one.txt', '1\n');
    write(repo, 'b/two.txt', '2\n');
    const text = textOf(await harness(repo).call('git_status', { path: 'a' }));
    expect(text).toContain('a/');
    expect(text).not.toContain('b/');
  });

  it('shows paths relative to the workspace root when the repository is a subfolder', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'proj'));
    const repo = makeRepo(join(root, 'proj'));
    write(repo, 'x.txt', 'x\n');
    const text = textOf(await harness(root, { cwd: 'proj' }).call('git_status', {}));
    expect(text).toMatch(/Untracked \(1\):\n\s+proj\/x.txt/);
  });

  it('refuses a folder that is not a repository, and a repository that starts outside the workspace', async () => {
    const plain = tempDir();
    const r1 = await harness(plain).call('git_status', {});
    expect(r1.error?.code).toBe('NOT_FOUND');
    expect(r1.error?.message).toContain('not inside a git repository');

    const repo = makeRepo();
    mkdirSync(join(repo, 'sub'));
    const r2 = await harness(join(repo, 'sub')).call('git_status', {});
    expect(r2.error?.code).toBe('PERMISSION_DENIED');
    expect(r2.error?.message).toContain('starts outside the workspace');
  });

  it("sees toolbelt's own tracked files and tracked secrets as they are (a diff never prints a committed secret), though the sandbox hides them from commands", async () => {
    const repo = makeRepo();
    write(repo, 'toolbelt.config.json', '{}\n');
    write(repo, '.env', 'API_KEY=committed-secret-7f3a\n');
    sh(repo, 'add', '.');
    sh(repo, 'commit', '-q', '-m', 'config');
    const h = harness(repo);
    expect(textOf(await h.call('git_status', {}))).toBe('On branch main, no upstream\nWorking tree clean.');
    // Hidden as empty, the committed .env would be a change whose diff prints the secret.
    expect(textOf(await h.call('git_diff', {}))).not.toContain('committed-secret-7f3a');
    write(repo, 'a.txt', 'a\n');
    const c = await h.call('git_commit', { message: 'a', files: ['a.txt'] });
    expect(c.status, JSON.stringify(c.error)).toBe('success');
    expect(sh(repo, 'show', '--name-status', '--format=', 'HEAD')).toBe('A\ta.txt\n');
  });

  it('refuses a path outside the workspace', async () => {
    const repo = makeRepo();
    const r = await harness(repo).call('git_status', { path: '../' });
    expect(r.error?.code).toBe('PERMISSION_DENIED');
  });

  it('does not run a repository-configured fsmonitor program', async () => {
    const repo = makeRepo();
    const marker = join(repo, 'fsmonitor-ran');
    sh(repo, 'config', 'core.fsmonitor', `touch '${marker}'; false`);
    const r = await harness(repo).call('git_status', {});
    expect(r.status).toBe('success');
    expect(existsSync(marker)).toBe(false);
  });
});

describe('git environment', () => {
  it('drops variables that point git at another repository and disables prompts', () => {
    const env = gitEnv({
      PATH: '/bin',
      GIT_DIR: '/elsewhere/.git',
      GIT_WORK_TREE: '/elsewhere',
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'core.pager',
      GIT_CONFIG_VALUE_0: 'evil',
    });
    expect(env.GIT_DIR).toBeUndefined();
    expect(env.GIT_WORK_TREE).toBeUndefined();
    expect(env.GIT_CONFIG_KEY_0).toBeUndefined();
    expect(env.GIT_TERMINAL_PROMPT).toBe('0');
    expect(env.GIT_PAGER).toBe('cat');
    expect(env.PATH).toBe('/bin');
  });
});
