import { afterAll, describe, expect, it } from 'vitest';
import { textOf } from '@toolbelt/core';
import { cleanup, harness, makeRepo, sh, write } from './__fixtures__/repos.js';

afterAll(cleanup);

function repoWithHistory(): string {
  const repo = makeRepo();
  for (const [file, msg] of [
    ['a.txt', 'add a'],
    ['b.txt', 'add b'],
    ['a.txt', 'change a\n\nwith a body line'],
  ]) {
    write(repo, file, msg + '\n');
    sh(repo, 'add', file);
    sh(repo, 'commit', '-q', '-m', msg);
  }
  return repo;
}

describe('git_log', () => {
  it('lists commits newest first, one line each, up to the limit', async () => {
    const text = textOf(await harness(repoWithHistory()).call('git_log', { limit: 2 }));
    const lines = text.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^[0-9a-f]{7,} \d{4}-\d\d-\d\d Test Author: change a$/);
    expect(lines[1]).toContain('add b');
  });

  it('filters by path and shows the full message in full format', async () => {
    const h = harness(repoWithHistory());
    const byPath = textOf(await h.call('git_log', { path: 'a.txt' }));
    expect(byPath).toContain('change a');
    expect(byPath).toContain('add a');
    expect(byPath).not.toContain('add b');
    const full = textOf(await h.call('git_log', { limit: 1, format: 'full' }));
    expect(full).toMatch(/^commit [0-9a-f]{40}\nAuthor: Test Author <test@example.com>/);
    expect(full).toContain('    with a body line');
    expect(full).toMatch(/a\.txt \| 4 \+\+\+-/);
  });

  it('starts from another ref and refuses one that looks like an option', async () => {
    const repo = repoWithHistory();
    sh(repo, 'branch', 'old', 'HEAD~2');
    const h = harness(repo);
    const text = textOf(await h.call('git_log', { ref: 'old' }));
    expect(text).toContain('add a');
    expect(text).not.toContain('add b');
    const inj = await h.call('git_log', { ref: '--all' });
    expect(inj.error?.code).toBe('INVALID_PARAMS');
  });

  it('says so when there are no commits yet', async () => {
    const r = await harness(makeRepo(undefined, { empty: true })).call('git_log', {});
    expect(textOf(r)).toBe('No commits yet on branch main.');
  });
});
