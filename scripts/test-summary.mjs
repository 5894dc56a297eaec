// The closing lines of `npm test`, from vitest's JSON report: tests and test files, each passed and
// failed. A file fails without a failed test when it cannot load or a hook fails (a cleanup that
// times out), so files are counted too. The count of failures is non-zero exactly when the run failed.
import { relative } from 'node:path';

/**
 * @param {any} report vitest's JSON report, or undefined when it wrote none
 * @param {number | null} status vitest's exit code
 * @param {string} root paths are shown relative to it
 * @returns {{ lines: string[], failed: number }}
 */
export function summarize(report, status, root) {
  if (!report)
    return { lines: [`Tests: 0 passed, 1 failed (vitest exited ${status} and wrote no results)`], failed: 1 };
  const files = report.testResults ?? [];
  const failedFiles = files.filter((f) => f.status === 'failed');
  const failedTests = report.numFailedTests ?? 0;
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // A failure outside any file (an unhandled error) shows only in vitest's exit code.
  const outside = status !== 0 && !failedFiles.length && !failedTests ? 1 : 0;
  const lines = [
    `Tests: ${report.numPassedTests ?? 0} passed, ${failedTests + outside} failed${skipped ? `, ${skipped} skipped` : ''}. ` +
      `Test files: ${files.length - failedFiles.length} passed, ${failedFiles.length} failed.`,
  ];
  for (const f of failedFiles) {
    const tests = (f.assertionResults ?? []).filter((a) => a.status === 'failed').length;
    const why = tests
      ? `${tests} failed test${tests > 1 ? 's' : ''}`
      : (f.message ?? '').split('\n')[0] || 'failed outside its tests';
    lines.push(`  failed: ${relative(root, f.name)} (${why})`);
  }
  if (outside)
    lines.push(`  failed: vitest exited ${status} with every test and file passed: an error outside them (see above)`);
  return { lines, failed: failedTests + failedFiles.length + outside };
}
