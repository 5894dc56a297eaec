// A command judged a read runs with GIT_OPTIONAL_LOCKS=0: `git status` then does not refresh the
// index (a write, with its lock file) when a file's stat data changed.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitReadEnv } from './env.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A repository whose index is stale for a.txt (its mtime moved), and the index's mtime. */
function staleRepo(): { dir: string; index: () => number } {
  const dir = mkdtempSync(join(tmpdir(), 'tb-gitlocks-'));
  dirs.push(dir);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@x', ...args], { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  writeFileSync(join(dir, 'a.txt'), 'a\n');
  git('add', 'a.txt');
  git('commit', '-qm', 'a');
  const index = join(dir, '.git', 'index');
  const past = new Date(Date.now() - 60_000);
  utimesSync(index, past, past);
  const later = new Date(Date.now() - 30_000);
  utimesSync(join(dir, 'a.txt'), later, later);
  return { dir, index: () => statSync(index).mtimeMs };
}

describe('the environment of git reads', () => {
  it('keeps git status from rewriting the index', () => {
    const { dir, index } = staleRepo();
    const before = index();
    execFileSync('git', ['status', '--short'], { cwd: dir, env: gitReadEnv(process.env), stdio: 'ignore' });
    expect(index()).toBe(before);
  });

  it('control: without it, git status rewrites the stale index', () => {
    const { dir, index } = staleRepo();
    const before = index();
    const env = { ...process.env };
    delete env.GIT_OPTIONAL_LOCKS;
    execFileSync('git', ['status', '--short'], { cwd: dir, env, stdio: 'ignore' });
    expect(index()).not.toBe(before);
  });
});
