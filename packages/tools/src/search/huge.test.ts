// A file with far more matches than max_results: both engines stop early and keep only the cap.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findRg, runGrep } from './engine.js';
import { SearchPool } from './js/pool.js';
import { compilePattern } from './regex.js';

const dir = mkdtempSync(join(tmpdir(), 'tb-huge-'));
writeFileSync(join(dir, 'log.txt'), 'match me\n'.repeat(300_000));
const pool = new SearchPool(1);
const rg = findRg();
afterAll(async () => {
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a result far over the cap', () => {
  it.each(rg ? (['rg', 'js'] as const) : (['js'] as const))(
    'keeps exactly max_results matching lines (%s)',
    async (engine) => {
      const q = {
        root: dir,
        isFile: false,
        mode: 'content' as const,
        before: 0,
        after: 0,
        multiline: false,
        globs: [],
        typeGlobs: [],
        ignoreFiles: true,
        maxResults: 50,
        signal: new AbortController().signal,
      };
      const run = await runGrep(q, compilePattern('match'), { engine, ...(rg ? { rgPath: rg } : {}), pool });
      expect(run.capped).toBe(true);
      expect(run.hits).toHaveLength(1);
      expect(run.hits[0].lines).toHaveLength(50);
      expect(run.hits[0].lines!.at(-1)).toEqual({ n: 50, text: 'match me', match: true });
    },
  );
});
