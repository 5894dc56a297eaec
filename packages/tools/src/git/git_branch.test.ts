import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { textOf } from '@toolbelt/core';
import { addBareRemote, cleanup, harness, makeRepo, sh, write } from './__fixtures__/repos.js';

afterAll(cleanup);

const current = (repo: string) => sh(repo, 'branch', '--show-current').trim();

describe('git_branch', () => {
  it('is a read when listing and a write when creating or switching', async () => {
    const { executor } = harness(makeRepo(), { mode: 'safe' });
    const list = await executor.explain({ tool: 'git_branch', input: {} });
    expect(list.effect).toBe('read');
    expect(list.decision?.action).toBe('allow');
    const create = await executor.explain({ tool: 'git_branch', input: { action: 'create', name: 'feature' } });
    expect(create.effect).toBe('write');
    expect(create.decision?.action).toBe('ask');
    expect(create.classification?.reason).toBe('creates branch feature from HEAD and switches to it');
    expect((await executor.explain({ tool: 'git_branch', input: { action: 'switch', name: 'main' } })).effect).toBe(
      'write',
    );
  });

  it('lists branches with the current one marked and upstream tracking', async () => {
    const repo = makeRepo();
    addBareRemote(repo);
    sh(repo, 'branch', 'feature');
    const text = textOf(await harness(repo).call('git_branch', { action: 'list' }));
    expect(text).toMatch(/^ {2}feature +[0-9a-f]{7,} initial commit$/m);
    expect(text).toMatch(/^\* main +[0-9a-f]{7,} \[origin\/main\] initial commit$/m);
    const all = textOf(await harness(repo).call('git_branch', { all: true }));
    expect(all).toContain('origin/main');
  });

  it('creates and switches, creates without switching, and switches back', async () => {
    const repo = makeRepo();
    const h = harness(repo);
    expect(textOf(await h.call('git_branch', { action: 'create', name: 'feature/x' }))).toBe(
      'Created branch feature/x from HEAD and switched to it.',
    );
    expect(current(repo)).toBe('feature/x');
    await h.call('git_branch', { action: 'create', name: 'later', checkout: false });
    expect(current(repo)).toBe('feature/x');
    expect(sh(repo, 'branch', '--list', 'later')).toContain('later');
    expect((await h.call('git_branch', { action: 'switch', name: 'main' })).status).toBe('success');
    expect(current(repo)).toBe('main');
  });

  it('refuses names that git would read as options or that are not valid refs', async () => {
    const repo = makeRepo();
    const h = harness(repo);
    for (const name of ['-D', '--force', '-fmain']) {
      const r = await h.call('git_branch', { action: 'create', name });
      expect(r.error?.code, name).toBe('INVALID_PARAMS');
      expect(r.error?.message).toContain('starts with "-"');
    }
    expect((await h.call('git_branch', { action: 'create', name: 'a..b' })).error?.code).toBe('INVALID_PARAMS');
    expect((await h.call('git_branch', { action: 'create', name: 'x', startPoint: '--orphan' })).error?.code).toBe(
      'INVALID_PARAMS',
    );
    expect((await h.call('git_branch', { action: 'switch' })).error?.message).toContain('name is required');
    expect(sh(repo, 'branch', '--format=%(refname:short)').trim()).toBe('main');
  });

  it('reports a missing branch, an existing one, and a switch blocked by local changes', async () => {
    const repo = makeRepo();
    const h = harness(repo);
    expect((await h.call('git_branch', { action: 'switch', name: 'nope' })).error?.code).toBe('NOT_FOUND');
    expect((await h.call('git_branch', { action: 'create', name: 'main' })).error?.code).toBe('CONFLICT');
    sh(repo, 'switch', '-q', '-c', 'other');
    write(repo, 'README.md', '# other\n');
    sh(repo, 'commit', '-q', '-am', 'other readme');
    sh(repo, 'switch', '-q', 'main');
    write(repo, 'README.md', '# local edit\n');
    const r = await h.call('git_branch', { action: 'switch', name: 'other' });
    expect(r.error?.code).toBe('CONFLICT');
    expect(r.error?.message).toContain('Commit or stash');
    expect(current(repo)).toBe('main');
  });

  it('tells which files a switch rewrote (file.changed), so editors showing them reload', async () => {
    const repo = makeRepo();
    const h = harness(repo);
    sh(repo, 'switch', '-q', '-c', 'feature');
    write(repo, 'src/new.ts', 'export const n = 1;\n');
    sh(repo, 'add', '.');
    sh(repo, 'commit', '-q', '-m', 'add new.ts');
    sh(repo, 'switch', '-q', 'main');
    const changed: [string, string][] = [];
    h.executor.events.onType('file.changed', (e) => changed.push([e.path, e.operation]));
    await h.call('git_branch', { action: 'switch', name: 'feature' });
    expect(changed).toEqual([[join(repo, 'src/new.ts'), 'write']]);
    changed.length = 0;
    await h.call('git_branch', { action: 'switch', name: 'main' });
    expect(changed).toEqual([[join(repo, 'src/new.ts'), 'delete']]);
  });
});
