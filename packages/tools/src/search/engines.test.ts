// The two grep engines on the same tree and queries must return exactly the same results.
import { rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeSearchTree } from './__fixtures__/tree.js';
import { findRg, runGrep } from './engine.js';
import { SearchPool } from './js/pool.js';
import { compilePattern, type PatternOptions } from './regex.js';
import type { GrepQuery, OutputMode } from './results.js';
import { typeGlobs } from '../walk/file-types.js';

const root = makeSearchTree();
const pool = new SearchPool(2);
const rg = findRg();
afterAll(async () => {
  await pool.close();
  rmSync(dirname(root), { recursive: true, force: true });
});

interface Case {
  pattern: string;
  mode?: OutputMode;
  before?: number;
  after?: number;
  glob?: string[];
  type?: string;
  ignoreFiles?: boolean;
  multiline?: boolean;
  at?: string;
  pat?: PatternOptions;
}

async function search(c: Case, engine: 'rg' | 'js') {
  const q: GrepQuery = {
    root: c.at ? join(root, c.at) : root,
    isFile: false,
    mode: c.mode ?? 'content',
    before: c.before ?? 0,
    after: c.after ?? 0,
    multiline: c.multiline ?? false,
    globs: c.glob ?? [],
    typeGlobs: c.type ? typeGlobs(c.type) : [],
    ignoreFiles: c.ignoreFiles ?? true,
    maxResults: 10_000,
    signal: new AbortController().signal,
  };
  const run = await runGrep(q, compilePattern(c.pattern, { ...c.pat, multiline: c.multiline }), {
    engine,
    ...(rg ? { rgPath: rg } : {}),
    pool,
  });
  expect(run.engine).toBe(engine);
  return run.hits.map((h) => ({ ...h, path: relative(root, h.path) }));
}

const CASES: [string, Case][] = [
  ['plain content', { pattern: 'foo' }],
  ['case-insensitive', { pattern: 'foo', pat: { caseInsensitive: true } }],
  ['files with matches', { pattern: 'foo', mode: 'files_with_matches' }],
  ['count', { pattern: 'foo', mode: 'count' }],
  ['context -C2', { pattern: 'foo', before: 2, after: 2 }],
  ['after context only', { pattern: 'foo', after: 1 }],
  ['before context only', { pattern: 'foo', before: 3 }],
  ['an including glob', { pattern: 'foo', glob: ['*.ts'] }],
  ['an excluding glob', { pattern: 'foo', glob: ['!*.ts'], mode: 'files_with_matches' }],
  ['a glob that beats .gitignore', { pattern: 'foo', glob: ['*.log'], mode: 'files_with_matches' }],
  ['an anchored directory glob', { pattern: 'foo', glob: ['sub/**'] }],
  ['brace glob', { pattern: 'foo', glob: ['*.{ts,py}'], mode: 'files_with_matches' }],
  ['type filter', { pattern: 'foo', type: 'ts', mode: 'files_with_matches' }],
  ['two types', { pattern: 'foo', type: 'py,md', mode: 'files_with_matches' }],
  ['type and glob', { pattern: 'foo', type: 'ts', glob: ['*.js'], mode: 'files_with_matches' }],
  ['ignore files off', { pattern: 'foo', ignoreFiles: false, mode: 'files_with_matches' }],
  ['anchors', { pattern: '^foo$' }],
  ['word boundaries', { pattern: '\\bfoo\\b', mode: 'count' }],
  ['whitespace class', { pattern: 'fo+\\s' }],
  ['multiline content', { pattern: 'foo\\nbar', multiline: true }],
  ['multiline with CRLF', { pattern: 'foo\\r?\\nbar', multiline: true, before: 1, after: 1 }],
  ['multiline count', { pattern: 'foo\\nba', multiline: true, mode: 'count' }],
  ['multiline pattern that cannot cross lines', { pattern: 'o', multiline: true, mode: 'count' }],
  ['from a subdirectory (parent ignore files apply)', { pattern: 'foo', at: 'sub' }],
  ['from a nested repository', { pattern: 'foo', at: 'nested-repo', mode: 'files_with_matches' }],
  ['literal text', { pattern: 'foo()', pat: { literal: true } }],
  ['two required literals', { pattern: 'const.*foo' }],
  ['two literals with context', { pattern: 'export.*foo', before: 1, after: 2 }],
  ['POSIX class', { pattern: '[[:upper:]]oo' }],
  ['non-ASCII', { pattern: 'é|Σ' }],
  ['no matches', { pattern: 'zzz-not-there' }],
];

describe('grep engines', () => {
  it.runIf(rg)('agree exactly with each other on every query', async () => {
    for (const [what, c] of CASES) {
      const [a, b] = await Promise.all([search(c, 'rg'), search(c, 'js')]);
      expect(b, what).toEqual(a);
    }
  });

  it('the JS engine honours ignore files, globs and binary detection', async () => {
    const files = (await search({ pattern: 'foo', mode: 'files_with_matches' }, 'js')).map((h) => h.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'a.ts',
        'keep.log',
        'important.log',
        'sub/debug.log',
        '.hidden/h.ts',
        'sub/top-only.txt',
        'bom.txt',
        'utf16.txt',
        'crlf.txt',
        'nested-repo/n.ts',
        'nested-repo/z.log',
      ]),
    );
    for (const absent of [
      'debug.log',
      'top-only.txt',
      'build/out.js',
      'node_modules/pkg/index.js',
      'secret-notes/n.txt',
      '.git/config',
      '.toolbelt/executions.jsonl',
      'sub/x.tmp',
      'sub/deep/readme.md',
      'nested-repo/n.txt',
      'binary.dat',
      'bigbin.txt',
      'link.ts',
    ]) {
      expect(files).not.toContain(absent);
    }
    expect(files.some((f) => f.startsWith('linkdir/'))).toBe(false);
  });

  it('the JS engine reports context lines and match lines', async () => {
    const hits = await search({ pattern: 'foo two', before: 1, after: 1 }, 'js');
    expect(hits).toEqual([
      {
        path: 'sub/c.ts',
        lines: [
          { n: 1, text: 'line one', match: false },
          { n: 2, text: 'foo two', match: true },
          { n: 3, text: 'line three', match: false },
        ],
      },
    ]);
  });

  it('the JS engine counts matches, not lines, in multiline mode', async () => {
    const hits = await search(
      { pattern: 'foo\\n(bar|baz)', multiline: true, mode: 'count', glob: ['multi.txt'] },
      'js',
    );
    expect(hits).toEqual([{ path: 'multi.txt', count: 3 }]);
  });

  it('stops at the cap and says it did', async () => {
    const q: GrepQuery = {
      root,
      isFile: false,
      mode: 'content',
      before: 0,
      after: 0,
      multiline: false,
      globs: [],
      typeGlobs: [],
      ignoreFiles: true,
      maxResults: 3,
      signal: new AbortController().signal,
    };
    for (const engine of rg ? (['rg', 'js'] as const) : (['js'] as const)) {
      const run = await runGrep(q, compilePattern('foo'), { engine, ...(rg ? { rgPath: rg } : {}), pool });
      expect(run.capped).toBe(true);
      expect(run.hits.flatMap((h) => h.lines ?? []).filter((l) => l.match).length).toBe(3);
    }
  });

  it('runs patterns rg cannot on the JS engine and says why', async () => {
    const q: GrepQuery = {
      root,
      isFile: false,
      mode: 'files_with_matches',
      before: 0,
      after: 0,
      multiline: false,
      globs: [],
      typeGlobs: [],
      ignoreFiles: true,
      maxResults: 100,
      signal: new AbortController().signal,
    };
    const run = await runGrep(q, compilePattern('foo(?= first)'), {
      engine: 'rg',
      ...(rg ? { rgPath: rg } : {}),
      pool,
    });
    expect(run.engine).toBe('js');
    expect(run.fallback).toBeTruthy();
    expect(run.hits.map((h) => relative(root, h.path))).toEqual(['bom.txt']);
  });
});
