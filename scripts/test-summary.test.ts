// `npm test`'s closing lines (scripts/test.mjs) on real vitest runs of the fixture files in
// scripts/__fixtures__/test-summary (a config of their own, so the repository's suite is not run):
// a file that fails only in its cleanup hook is counted as failed, and the exit code follows.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { summarize } from './test-summary.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONFIG = 'scripts/__fixtures__/test-summary/vitest.config.ts';

function npmTest(...filter: string[]) {
  const r = spawnSync(process.execPath, ['scripts/test.mjs', '--config', CONFIG, ...filter], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const out = `${r.stdout}${r.stderr}`;
  return { status: r.status, out, summary: out.slice(out.lastIndexOf('\nTests: ') + 1) };
}

describe('the summary of npm test', () => {
  it('counts a file that failed in a hook, with every test passed, as failed, and exits 1', () => {
    const r = npmTest();
    expect(r.status, r.out).toBe(1);
    expect(r.summary).toMatch(/^Tests: 2 passed, 0 failed\. Test files: 1 passed, 1 failed\.\n/);
    expect(r.summary).toContain('  failed: scripts/__fixtures__/test-summary/hook-fails.fixture.ts (cleanup failed)\n');
  }, 60_000);

  it('says 0 failed and exits 0 when every test and file passed', () => {
    const r = npmTest('passes');
    expect(r.status, r.out).toBe(0);
    expect(r.summary).toMatch(/^Tests: 1 passed, 0 failed\. Test files: 1 passed, 0 failed\.\n/);
  }, 60_000);

  it('counts a failure outside every file (vitest exited 1, all passed) and one with no results at all', () => {
    const report = {
      numPassedTests: 3,
      numFailedTests: 0,
      testResults: [{ name: `${ROOT}a.test.ts`, status: 'passed' }],
    };
    expect(summarize(report, 1, ROOT)).toEqual({
      lines: [
        'Tests: 3 passed, 1 failed. Test files: 1 passed, 0 failed.',
        '  failed: vitest exited 1 with every test and file passed: an error outside them (see above)',
      ],
      failed: 1,
    });
    expect(summarize(report, 0, ROOT).failed).toBe(0);
    expect(summarize(undefined, 1, ROOT)).toMatchObject({ failed: 1 });
  });
});
