import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { textOf } from '@toolbelt/core';
import { cleanup, harness, makeRepo, sh, write } from './__fixtures__/repos.js';

afterAll(cleanup);

function repoWithChanges(): string {
  const repo = makeRepo();
  write(repo, 'a.txt', 'one\ntwo\n');
  write(repo, 'b.txt', 'bee\n');
  sh(repo, 'add', '.');
  sh(repo, 'commit', '-q', '-m', 'add a and b');
  write(repo, 'a.txt', 'one\nTWO\n');
  write(repo, 'b.txt', 'BEE\n');
  sh(repo, 'add', 'b.txt');
  return repo;
}

describe('git_diff', () => {
  it('shows unstaged changes by default and staged ones on request', async () => {
    const h = harness(repoWithChanges());
    const unstaged = await h.call('git_diff', {});
    expect(textOf(unstaged)).toContain('-two\n+TWO');
    expect(textOf(unstaged)).not.toContain('BEE');
    expect(unstaged.display).toMatchObject({ kind: 'diff' });
    const staged = textOf(await h.call('git_diff', { staged: true }));
    expect(staged).toContain('-bee\n+BEE');
    expect(staged).not.toContain('TWO');
  });

  it('compares against a base commit, limits to a path and summarizes with stat', async () => {
    const repo = repoWithChanges();
    const h = harness(repo);
    const vsHead = textOf(await h.call('git_diff', { base: 'HEAD', path: 'a.txt' }));
    expect(vsHead).toContain('+TWO');
    expect(vsHead).not.toContain('b.txt');
    const vsFirst = textOf(await h.call('git_diff', { base: 'HEAD~1', stat: true }));
    expect(vsFirst).toMatch(/a\.txt \| 2 \+/);
    expect(vsFirst).toMatch(/2 files changed/);
  });

  it('says when there is nothing to show', async () => {
    const r = await harness(makeRepo()).call('git_diff', {});
    expect(textOf(r)).toBe('No unstaged changes. Untracked files are not shown; see git_status.');
  });

  it('refuses a base that git would read as an option, and one that does not exist', async () => {
    const repo = repoWithChanges();
    const h = harness(repo);
    const out = join(repo, 'leaked.patch');
    const inj = await h.call('git_diff', { base: `--output=${out}` });
    expect(inj.error?.code).toBe('INVALID_PARAMS');
    expect(inj.error?.message).toContain('starts with "-"');
    expect(existsSync(out)).toBe(false);
    const missing = await h.call('git_diff', { base: 'no-such-branch' });
    expect(missing.error?.code).toBe('NOT_FOUND');
  });

  it('treats a path as a literal path, not a glob', async () => {
    const repo = repoWithChanges();
    const r = await harness(repo).call('git_diff', { path: '*.txt' });
    expect(textOf(r)).toContain('No unstaged changes in *.txt');
  });
});
