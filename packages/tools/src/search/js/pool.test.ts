import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compilePattern } from '../regex.js';
import { specFor } from './engine.js';
import { SearchPool } from './pool.js';

const dir = mkdtempSync(join(tmpdir(), 'tb-pool-'));
const file = join(dir, 'a.txt');
writeFileSync(file, 'one\ntwo\n');
const pool = new SearchPool(1);
afterAll(async () => {
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
});

const spec = specFor(
  {
    root: dir,
    isFile: false,
    mode: 'content',
    before: 0,
    after: 0,
    multiline: false,
    globs: [],
    typeGlobs: [],
    ignoreFiles: true,
    maxResults: 10,
    signal: new AbortController().signal,
  },
  compilePattern('two'),
);

describe('SearchPool', () => {
  it('searches files on a worker thread', async () => {
    expect(await pool.search([file], spec, new SharedArrayBuffer(4))).toEqual([
      { path: file, lines: [{ n: 2, text: 'two', match: true }] },
    ]);
  });

  it('fails the search when a worker dies, instead of reporting no matches, and recovers', async () => {
    const broken = { ...spec, line: ['(', 'u'] as [string, string] };
    await expect(pool.search([file], broken, new SharedArrayBuffer(4))).rejects.toThrow('grep worker thread failed');
    expect(await pool.search([file], spec, new SharedArrayBuffer(4))).toHaveLength(1);
  });

  it('skips the rest of a batch once the shared stop flag is raised', async () => {
    const stop = new SharedArrayBuffer(4);
    Atomics.store(new Int32Array(stop), 0, 1);
    expect(await pool.search([file, file], spec, stop)).toEqual([]);
  });
});
