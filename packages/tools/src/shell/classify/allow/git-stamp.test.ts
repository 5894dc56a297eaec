// The history check asks git for its cache key only when the .git files behind it changed. Each
// way history can change moves the stamp; a change within the last second is not trusted; and a
// secret committed right after a clean verdict is caught (real git, real repositories).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { classifyCommand } from '../classify.js';
import { historyKey } from './git-history.js';
import { dotGitOf, historyStamp } from './git-stamp.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const ID = ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false'];
const git = (repo: string, ...args: string[]) =>
  execFileSync('git', ['-C', repo, ...ID, ...args], { stdio: 'pipe' }).toString();

function repo(): string {
  const r = realpathSync(mkdtempSync(join(tmpdir(), 'tb-stamp-')));
  dirs.push(r);
  git(r, 'init', '-q', '-b', 'main');
  writeFileSync(join(r, 'a.txt'), 'one\n');
  git(r, 'add', 'a.txt');
  git(r, 'commit', '-qm', 'one');
  return r;
}

/** A moment well after every change, so the stamp is trusted. */
const later = () => BigInt(Date.now() + 10_000) * 1_000_000n;
const stamp = (r: string) => historyStamp(join(r, '.git'), later());

describe('the history stamp', () => {
  it('finds the .git directory above a subdirectory, and none for a .git file', () => {
    const r = repo();
    expect(dotGitOf(join(r, 'sub', 'deeper'))).toBe(join(r, '.git'));
    const wt = join(r, '..', `${r.split('/').pop()}-wt`);
    dirs.push(wt);
    git(r, 'worktree', 'add', '-q', wt);
    expect(dotGitOf(wt)).toBeUndefined();
  });

  it.each<[string, (r: string) => void]>([
    ['a commit', (r) => (writeFileSync(join(r, 'a.txt'), 'two\n'), git(r, 'commit', '-qam', 'two'))],
    ['a staged file', (r) => (writeFileSync(join(r, 'b.txt'), 'b\n'), git(r, 'add', 'b.txt'))],
    ['a tag', (r) => git(r, 'tag', 'v1')],
    ['a branch', (r) => git(r, 'branch', 'other')],
    ['packed refs', (r) => (git(r, 'tag', 'v2'), git(r, 'pack-refs', '--all'))],
    ['a reset (the reflog grows)', (r) => git(r, 'reset', '-q', '--soft', 'HEAD')],
    ['an expired reflog', (r) => git(r, 'reflog', 'expire', '--expire=now', '--all')],
    [
      'a replace ref',
      (r) => git(r, 'replace', git(r, 'rev-parse', 'HEAD').trim(), git(r, 'rev-parse', 'HEAD').trim(), '-f'),
    ],
    ['a new worktree', (r) => (dirs.push(`${r}-w`), git(r, 'worktree', 'add', '-q', `${r}-w`))],
  ])('moves with %s', (_what, change) => {
    const r = repo();
    const before = stamp(r);
    expect(before).toBeDefined();
    expect(stamp(r)).toBe(before);
    change(r);
    expect(stamp(r)).not.toBe(before);
  });

  it('is not trusted within a second of a change', () => {
    const r = repo();
    expect(historyStamp(join(r, '.git'))).toBeUndefined();
    expect(stamp(r)).toBeDefined();
  });
});

describe('the history check with the stamp', () => {
  it('keeps git’s key while nothing changed, and asks git again after a change (control: git unreachable)', async () => {
    const r = repo();
    await new Promise((done) => setTimeout(done, 1_100));
    const key = historyKey(r);
    expect(key).toBeDefined();
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      // Nothing changed: the kept key, without running git.
      expect(historyKey(r)).toBe(key);
    } finally {
      process.env.PATH = path;
    }
    git(r, 'tag', 'moved');
    await new Promise((done) => setTimeout(done, 1_100));
    process.env.PATH = '/nonexistent';
    try {
      // Changed: git must be asked, and cannot be here.
      expect(historyKey(r)).toBeUndefined();
    } finally {
      process.env.PATH = path;
    }
  });

  it('a secret committed right after a clean verdict makes the next patch-printing read ask', async () => {
    const r = repo();
    await new Promise((done) => setTimeout(done, 1_100));
    const opts = { cwd: r, roots: [r], env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: r } };
    expect((await classifyCommand('git show HEAD', opts)).effect).toBe('read');
    expect((await classifyCommand('git show HEAD', opts)).effect).toBe('read');
    writeFileSync(join(r, '.env'), 'TOKEN=marker\n');
    git(r, 'add', '-f', '.env');
    git(r, 'commit', '-qm', 'oops');
    expect((await classifyCommand('git show HEAD', opts)).effect).not.toBe('read');
    await new Promise((done) => setTimeout(done, 1_100));
    expect((await classifyCommand('git show HEAD', opts)).effect).not.toBe('read');
  });
});
