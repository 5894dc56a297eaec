import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { textOf } from '@toolbelt/core';
import { cleanup, harness, makeRepo, sh, write } from './__fixtures__/repos.js';

afterAll(cleanup);

const lastSubject = (repo: string) => sh(repo, 'log', '-1', '--format=%s').trim();
const filesIn = (repo: string, rev = 'HEAD') =>
  sh(repo, 'show', '--name-status', '--format=', rev).trim().split('\n').sort();

describe('git_commit', () => {
  it('commits exactly the given files, new and deleted ones included, and leaves other staged files staged', async () => {
    const repo = makeRepo();
    write(repo, 'keep.txt', 'k\n');
    sh(repo, 'add', 'keep.txt');
    sh(repo, 'commit', '-q', '-m', 'keep');
    write(repo, 'src/new.ts', 'export {};\n');
    rmSync(join(repo, 'keep.txt'));
    write(repo, 'README.md', '# staged elsewhere\n');
    sh(repo, 'add', 'README.md');

    const r = await harness(repo).call('git_commit', {
      message: 'add new, drop keep',
      files: ['src/new.ts', 'keep.txt'],
    });
    expect(r.status).toBe('success');
    expect(textOf(r)).toMatch(/^Committed [0-9a-f]{7,} on main: add new, drop keep\n/);
    expect(filesIn(repo)).toEqual(['A\tsrc/new.ts', 'D\tkeep.txt'].sort());
    expect(sh(repo, 'diff', '--cached', '--name-only').trim()).toBe('README.md');
  });

  it('commits what is staged when no files are given, and refuses when nothing is', async () => {
    const repo = makeRepo();
    const h = harness(repo);
    const empty = await h.call('git_commit', { message: 'nothing' });
    expect(empty.error?.code).toBe('INVALID_PARAMS');
    expect(empty.error?.message).toContain('nothing is staged');
    write(repo, 'README.md', '# v2\n');
    write(repo, 'unstaged.txt', 'u\n');
    sh(repo, 'add', 'README.md');
    expect((await h.call('git_commit', { message: 'v2' })).status).toBe('success');
    expect(filesIn(repo)).toEqual(['M\tREADME.md']);
    expect(sh(repo, 'status', '--porcelain')).toContain('?? unstaged.txt');
  });

  it('refuses files without changes', async () => {
    const r = await harness(makeRepo()).call('git_commit', { message: 'x', files: ['README.md'] });
    expect(r.error?.code).toBe('INVALID_PARAMS');
    expect(r.error?.message).toContain('no changes to commit');
  });

  it('takes the message literally, even when it looks like an option', async () => {
    const repo = makeRepo();
    write(repo, 'a.txt', 'a\n');
    const r = await harness(repo).call('git_commit', {
      message: '--amend --no-verify\n\n# not a comment',
      files: ['a.txt'],
    });
    expect(r.status).toBe('success');
    expect(lastSubject(repo)).toBe('--amend --no-verify');
    expect(sh(repo, 'log', '-1', '--format=%b')).toContain('# not a comment');
    expect(sh(repo, 'rev-list', '--count', 'HEAD').trim()).toBe('2');
  });

  it('is a write that asks in safe mode, with a preview of the files, and does nothing when rejected', async () => {
    const repo = makeRepo();
    write(repo, 'a.txt', 'a\n');
    write(repo, 'README.md', '# changed\n');
    const h = harness(repo, { mode: 'safe', answer: 'reject' });
    const r = await h.call('git_commit', { message: 'two files\n\nbody', files: ['a.txt', 'README.md'] });
    expect(r.status).toBe('rejected');
    expect(h.requests).toHaveLength(1);
    const req = h.requests[0];
    expect(req.effect).toBe('write');
    expect(req.preview).toEqual({
      kind: 'text',
      text: 'git commit on main: two files\n\nFiles (2):\n  modified: README.md\n  added: a.txt',
    });
    expect(lastSubject(repo)).toBe('initial commit');
    expect(sh(repo, 'status', '--porcelain')).toContain('?? a.txt');
  });

  it('refuses a file outside the workspace before asking', async () => {
    const h = harness(makeRepo(), { mode: 'safe' });
    const r = await h.call('git_commit', { message: 'x', files: ['../elsewhere.txt'] });
    expect(r.error?.code).toBe('PERMISSION_DENIED');
    expect(h.requests).toHaveLength(0);
  });

  it('works on a repository without commits', async () => {
    const repo = makeRepo(undefined, { empty: true });
    write(repo, 'first.txt', '1\n');
    const r = await harness(repo).call('git_commit', { message: 'first', files: ['first.txt'] });
    expect(r.status).toBe('success');
    expect(lastSubject(repo)).toBe('first');
  });
});
