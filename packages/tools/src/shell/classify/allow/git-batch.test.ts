// The long-lived `git cat-file --batch-check`: answers as git does, sees refs move, is replaced
// when the history's key changes, and ends on closeObjectReaders.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeObjectReaders, objectReaderPids, resolveNames } from './git-batch.js';

const dirs: string[] = [];
afterAll(() => {
  closeObjectReaders();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function repo(): { dir: string; git: (...a: string[]) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'tb-batch-'));
  dirs.push(dir);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@x', ...args], { cwd: dir, encoding: 'utf8' }).trim();
  git('init', '-q');
  writeFileSync(join(dir, 'a.txt'), 'a\n');
  git('add', 'a.txt');
  git('commit', '-qm', 'a');
  return { dir, git };
}

const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(readStatus(pid));
const readStatus = (pid: number) => {
  try {
    return execFileSync('cat', [`/proc/${pid}/status`], { encoding: 'utf8' });
  } catch {
    return '';
  }
};

describe('the object reader', () => {
  it('names what a revision resolves to, a path as missing, and sees a ref move', () => {
    const { dir, git } = repo();
    const head = git('rev-parse', 'HEAD');
    const blob = git('rev-parse', 'HEAD:a.txt');
    expect(resolveNames(dir, undefined, 'k1', ['HEAD', 'HEAD^{commit}', 'a.txt', 'HEAD:a.txt'])).toEqual([
      { oid: head, type: 'commit' },
      { oid: head, type: 'commit' },
      'missing',
      { oid: blob, type: 'blob' },
    ]);
    git('tag', 'moved', blob);
    expect(resolveNames(dir, undefined, 'k1', ['moved', 'moved^{commit}'])).toEqual([
      { oid: blob, type: 'blob' },
      'missing',
    ]);
  });

  it('refuses a name with a line break (control: without it, an answer)', () => {
    const { dir } = repo();
    expect(resolveNames(dir, undefined, 'k', ['HEAD\nHEAD'])).toBeUndefined();
    expect(resolveNames(dir, undefined, 'k', ['HEAD'])).toHaveLength(1);
  });

  it('keeps one process per repository while its key holds, replaces it when the key changes, ends them on close', () => {
    closeObjectReaders();
    const { dir } = repo();
    resolveNames(dir, undefined, 'one', ['HEAD']);
    const [first] = objectReaderPids();
    resolveNames(dir, undefined, 'one', ['HEAD']);
    expect(objectReaderPids()).toEqual([first]);
    resolveNames(dir, undefined, 'two', ['HEAD']);
    const [second] = objectReaderPids();
    expect(second).not.toBe(first);
    expect(objectReaderPids()).toHaveLength(1);
    closeObjectReaders();
    expect(objectReaderPids()).toEqual([]);
    return expect.poll(() => [first, second].filter(alive), { timeout: 5_000 }).toEqual([]);
  });

  it('is replaced when the repository config changes', () => {
    closeObjectReaders();
    const { dir, git } = repo();
    resolveNames(dir, undefined, 'k', ['HEAD']);
    const [first] = objectReaderPids();
    git('config', 'branch.main.description', 'x');
    resolveNames(dir, undefined, 'k', ['HEAD']);
    expect(objectReaderPids()).toHaveLength(1);
    expect(objectReaderPids()[0]).not.toBe(first);
  });

  it('keeps an object answer and a missing plain name for the key; a hash-like missing name is asked again', () => {
    closeObjectReaders();
    const { dir, git } = repo();
    const head = git('rev-parse', 'HEAD');
    expect(resolveNames(dir, undefined, 'k', ['HEAD', 'path/x', 'beef1234'])).toEqual([
      { oid: head, type: 'commit' },
      'missing',
      'missing',
    ]);
    // With git gone, the kept answers still come; the hash-like name needs git and fails.
    process.kill(objectReaderPids()[0], 'SIGKILL');
    expect(resolveNames(dir, undefined, 'k', ['HEAD', 'path/x'])).toEqual([{ oid: head, type: 'commit' }, 'missing']);
    expect(resolveNames(dir, undefined, 'k', ['beef1234'])).toBeUndefined();
    // And a fresh process answers again.
    expect(resolveNames(dir, undefined, 'k', ['beef1234'])).toEqual(['missing']);
  });

  it('answers a question in well under the cost of starting git (reported, not asserted)', () => {
    const { dir } = repo();
    resolveNames(dir, undefined, 'k', ['HEAD']);
    const t0 = performance.now();
    // Hash-like names that resolve to nothing are asked of git every time.
    for (let i = 0; i < 100; i++) resolveNames(dir, undefined, 'k', [`beef${i}`, `cafe${i}`]);
    console.info(`object reader: ${((performance.now() - t0) / 100).toFixed(3)} ms per question`);
  });
});
