// edit_file on large files: bounded in memory. Over MAX_EDIT_FILE_BYTES it refuses and says what to
// use instead; under it, a replace_all with millions of matches stays in a modest amount of memory
// (peak RSS growth is measured and reported; a replace_all over 20 MB once took 1.2 GB).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeHarness } from './__fixtures__/harness.js';
import { MAX_EDIT_FILE_BYTES } from './edit_file.js';
import { fsTools } from './index.js';

const h = makeHarness(fsTools());
afterAll(() => h.close());
const MB = 1024 * 1024;

/** Peak RSS growth (MB) while `fn` runs: maxRSS after minus before (a lower bound if an earlier peak was higher). */
async function peakGrowth<T>(fn: () => Promise<T>): Promise<{ result: T; mb: number }> {
  const before = process.resourceUsage().maxRSS;
  const result = await fn();
  return { result, mb: Math.round((process.resourceUsage().maxRSS - before) / 1024) };
}

describe('edit_file on a large file', () => {
  it('refuses a 20 MB file without reading it, and says to use a streaming shell command', async () => {
    writeFileSync(join(h.root, 'big.txt'), 'foo\n'.repeat((20 * MB) / 4));
    const { result, mb } = await peakGrowth(() =>
      h.call('edit_file', { path: 'big.txt', old_string: 'foo', new_string: 'qux', replace_all: true }),
    );
    console.log(`edit_file replace_all on 20 MB (refused): peak RSS growth ${mb} MB`);
    expect(result.status).toBe('error');
    expect(h.text(result)).toMatch(/is 20 MB; edit_file edits files up to 10 MB/);
    expect(h.text(result)).toContain("sed -i 's/old/new/g' big.txt");
    expect(readFileSync(join(h.root, 'big.txt'), 'utf8').startsWith('foo\n')).toBe(true);
    expect(mb).toBeLessThan(64);
  });

  it('edits a file just under the limit with millions of matches in modest memory', async () => {
    const size = MAX_EDIT_FILE_BYTES - MB;
    writeFileSync(join(h.root, 'under.txt'), 'foo\n'.repeat(size / 4));
    const { result, mb } = await peakGrowth(() =>
      h.call('edit_file', { path: 'under.txt', old_string: 'foo', new_string: 'qux', replace_all: true }),
    );
    console.log(`edit_file replace_all on ${size / MB} MB, ${size / 4} matches: peak RSS growth ${mb} MB`);
    expect(h.text(result)).toContain(`${(size / 4).toLocaleString('en-US')} replacements`);
    expect(readFileSync(join(h.root, 'under.txt'), 'utf8')).toBe('qux\n'.repeat(size / 4));
    expect(mb).toBeLessThan(400);
  });

  it('refuses a replace_all whose result would be huge before building it', async () => {
    writeFileSync(join(h.root, 'grow.txt'), 'a'.repeat(MB));
    const r = await h.call('edit_file', {
      path: 'grow.txt',
      old_string: 'a',
      new_string: 'b'.repeat(100),
      replace_all: true,
    });
    expect(r.status).toBe('error');
    expect(h.text(r)).toMatch(/over the \d+-character limit/);
  });
});
