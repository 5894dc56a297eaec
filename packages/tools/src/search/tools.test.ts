import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeHarness } from '../fs/__fixtures__/harness.js';
import { findRg } from './engine.js';
import { MAX_PATTERN_CHARS } from './grep.js';
import { createGrep, glob } from './index.js';

const rg = findRg();
const engines = rg ? (['rg', 'js'] as const) : (['js'] as const);

function tree(h: ReturnType<typeof makeHarness>) {
  h.write('.gitignore', 'dist/\n');
  h.write('src/a.ts', 'const alpha = 1;\nconst beta = alpha + 1;\nexport { beta };\n');
  h.write('src/b.ts', 'export const gamma = "alpha";\n');
  h.write('src/c.py', 'alpha = 3\n');
  h.write('dist/a.js', 'const alpha = 1;\n');
  h.write('.env', 'ALPHA_TOKEN=alpha-secret\n');
  h.write('notes.md', 'nothing\n');
}

describe.each(engines)('grep (%s engine)', (engine) => {
  const h = makeHarness([createGrep({ engine })]);
  tree(h);
  afterAll(() => h.close());

  it('shows matching lines grouped by file, with line numbers and a summary', async () => {
    const r = await h.call('grep', { pattern: 'alpha' });
    expect(h.text(r)).toBe(
      [
        'src/a.ts',
        '1:const alpha = 1;',
        '2:const beta = alpha + 1;',
        '',
        'src/b.ts',
        '1:export const gamma = "alpha";',
        '',
        'src/c.py',
        '1:alpha = 3',
        '',
        '4 matching lines in 3 files. 1 protected file (.env, keys, credentials) not shown.',
      ].join('\n'),
    );
    expect(r.metadata).toMatchObject({ engine, files: 3, matches: 4 });
  });

  it('adds context with separators between groups', async () => {
    const r = await h.call('grep', { pattern: 'beta', path: 'src/a.ts', context: 1 });
    expect(h.text(r)).toBe(
      [
        'src/a.ts',
        '1-const alpha = 1;',
        '2:const beta = alpha + 1;',
        '3:export { beta };',
        '',
        '2 matching lines in 1 file.',
      ].join('\n'),
    );
  });

  it('separates groups with -- only when context lines are shown', async () => {
    h.write('gap/g.txt', 'omega 1\nx\nx\nx\nomega 5\n');
    expect(h.text(await h.call('grep', { pattern: 'omega', path: 'gap' }))).toBe(
      'gap/g.txt\n1:omega 1\n5:omega 5\n\n2 matching lines in 1 file.',
    );
    expect(h.text(await h.call('grep', { pattern: 'omega', path: 'gap', context: 1 }))).toBe(
      'gap/g.txt\n1:omega 1\n2-x\n--\n4-x\n5:omega 5\n\n2 matching lines in 1 file.',
    );
  });

  it('lists files or counts per file', async () => {
    expect(h.text(await h.call('grep', { pattern: 'alpha', output_mode: 'files_with_matches', type: 'ts' }))).toBe(
      'src/a.ts\nsrc/b.ts\n\n2 files.',
    );
    expect(h.text(await h.call('grep', { pattern: 'alpha', output_mode: 'count', glob: '*.ts' }))).toBe(
      'src/a.ts:2\nsrc/b.ts:1\n\n3 matching lines in 2 files.',
    );
  });

  it('skips ignored files unless asked, and searches a named file even if ignored', async () => {
    expect(h.text(await h.call('grep', { pattern: 'alpha', output_mode: 'files_with_matches' }))).not.toContain(
      'dist/a.js',
    );
    expect(
      h.text(await h.call('grep', { pattern: 'alpha', output_mode: 'files_with_matches', include_ignored: true })),
    ).toContain('dist/a.js');
    expect(h.text(await h.call('grep', { pattern: 'alpha', path: 'dist/a.js' }))).toContain('1:const alpha = 1;');
  });

  it('is case-insensitive on request', async () => {
    expect(h.text(await h.call('grep', { pattern: 'ALPHA', case_insensitive: true, output_mode: 'count' }))).toContain(
      '4 matching lines',
    );
  });

  it('lists no empty file when the cap falls between two files', async () => {
    for (const f of ['x1', 'x2', 'x3']) h.write(`cap/${f}.txt`, 'kappa one\nkappa two\n');
    const r = await h.call('grep', { pattern: 'kappa', path: 'cap', max_results: 2 });
    const text = h.text(r);
    expect(text).toMatch(/^cap\/x\d\.txt\n1:kappa one\n2:kappa two\n\nStopped at max_results \(2\)/);
    expect(r.metadata).toMatchObject({ files: 1, matches: 2, capped: true });
  });

  it('says when results were capped', async () => {
    const text = h.text(await h.call('grep', { pattern: 'alpha', max_results: 2 }));
    expect(text).toMatch(/\n\nStopped at max_results \(2\); narrow with path, glob or type, or raise max_results\./);
    expect(text).not.toContain('matching lines in');
    expect(text.match(/^\d+:/gm)).toHaveLength(2);
  });

  it('reports no matches with a hint about ignored files', async () => {
    expect(h.text(await h.call('grep', { pattern: 'zeta' }))).toBe(
      'No matches for "zeta" in .. Files ignored by .gitignore were skipped; include_ignored: true searches them.',
    );
  });

  it('rejects a bad pattern or type with a message the model can act on', async () => {
    const bad = await h.call('grep', { pattern: 'foo(' });
    expect(bad.error).toMatchObject({ code: 'INVALID_PARAMS', message: expect.stringContaining('not closed') });
    const type = await h.call('grep', { pattern: 'x', type: 'cobol' });
    expect(type.error?.message).toContain('unknown file type "cobol"');
  });

  it('refuses a parameter it does not have instead of ignoring it, naming the one meant', async () => {
    const r = await h.call('grep', { pattern: 'alpha', head_limit: 20 });
    expect(r.error?.code).toBe('INVALID_PARAMS');
    expect(r.error?.message).toMatch(
      /^Invalid parameters for grep: unknown parameter "head_limit"; did you mean "max_results"\? \(valid parameters: pattern, path, glob, .*max_results, include_ignored\)\. Fix them and call again\.$/,
    );
  });

  it('refuses paths outside the workspace', async () => {
    expect((await h.call('grep', { pattern: 'x', path: '..' })).error?.code).toBe('PERMISSION_DENIED');
  });

  it('emits progress as results arrive', async () => {
    const before = h.events.length;
    await h.call('grep', { pattern: 'alpha' });
    expect(h.events.slice(before).some((e) => e.type === 'tool.progress')).toBe(true);
  });
});

describe('grep and protected files', () => {
  it('shows hits in a protected file only when a rule allows that file', async () => {
    const h = makeHarness([createGrep()], { allowSensitive: (abs) => abs.endsWith('/.env') });
    tree(h);
    const text = h.text(await h.call('grep', { pattern: 'alpha-secret' }));
    expect(text).toBe('.env\n1:ALPHA_TOKEN=alpha-secret\n\n1 matching line in 1 file.');
    await h.close();
  });
});

describe('grep engine settings', () => {
  it('fails clearly when rg is required but missing', async () => {
    const h = makeHarness([createGrep({ engine: 'rg', rgPath: '/nonexistent/rg' })]);
    h.write('a.txt', 'x');
    const r = await h.call('grep', { pattern: 'x' });
    expect(r.error?.message).toContain('no rg binary was found at /nonexistent/rg');
    await h.close();
  });

  it('stops a runaway regular expression at the timeout and keeps working', async () => {
    const h = makeHarness([createGrep({ engine: 'js' })]);
    h.write('evil.txt', `${'a'.repeat(40)}!\n`);
    h.write('fine.txt', 'fine\n');
    const r = await h.executor.call({ tool: 'grep', input: { pattern: '(a|aa)+$' }, timeoutMs: 300 });
    expect(r.error?.code).toBe('TIMEOUT');
    const ok = await h.call('grep', { pattern: 'fine' });
    expect(h.text(ok)).toContain('fine.txt');
    await h.close();
  });
});

describe('glob', () => {
  const h = makeHarness([glob]);
  tree(h);
  h.write('src/deep/z.ts', 'z');
  const now = Date.now() / 1000;
  const age = (rel: string, secondsAgo: number) => utimesSync(join(h.root, rel), now - secondsAgo, now - secondsAgo);
  age('src/a.ts', 300);
  age('src/b.ts', 100);
  age('src/deep/z.ts', 200);
  afterAll(() => h.close());

  it('finds files at any depth, newest first', async () => {
    expect(h.text(await h.call('glob', { pattern: '**/*.ts' }))).toBe('src/b.ts\nsrc/deep/z.ts\nsrc/a.ts');
  });

  it('limits and counts the rest', async () => {
    const r = await h.call('glob', { pattern: '**/*.ts', limit: 1 });
    expect(h.text(r)).toBe('src/b.ts\n(2 more not shown; narrow the pattern or raise limit)');
    expect(r.metadata).toMatchObject({ matches: 3, shown: 1 });
  });

  it('respects .gitignore unless include_ignored is set', async () => {
    expect(h.text(await h.call('glob', { pattern: '**/*.js' }))).toContain('No files match');
    expect(h.text(await h.call('glob', { pattern: '**/*.js', include_ignored: true }))).toBe('dist/a.js');
  });

  it('matches relative to path and starts at the literal part of the pattern', async () => {
    expect(h.text(await h.call('glob', { pattern: '*.ts', path: 'src/deep' }))).toBe('in src/deep/:\nz.ts');
    expect(h.text(await h.call('glob', { pattern: 'src/deep/**' }))).toBe('src/deep/z.ts');
  });

  it('groups a long answer by directory, newest directory first', async () => {
    const g = makeHarness([glob]);
    for (let i = 0; i < 20; i++) g.write(`old/f${i}.md`, 'x');
    for (let i = 0; i < 12; i++) g.write(`lib/new/f${i}.md`, 'x');
    g.write('top.md', 'x');
    for (let i = 0; i < 20; i++) utimesSync(join(g.root, `old/f${i}.md`), now - 1000 - i, now - 1000 - i);
    for (let i = 0; i < 12; i++) utimesSync(join(g.root, `lib/new/f${i}.md`), now - 100 - i, now - 100 - i);
    utimesSync(join(g.root, 'top.md'), now - 500, now - 500);
    const lines = g.text(await g.call('glob', { pattern: '**/*.md' })).split('\n');
    expect(lines.filter((l) => !l.startsWith('  '))).toEqual(['lib/new/', './', 'old/']);
    expect(lines.slice(0, 3)).toEqual(['lib/new/', '  f0.md', '  f1.md']);
    expect(lines).toContain('  top.md');
    expect(lines).toHaveLength(33 + 3);
    await g.close();
  });

  it('explains that a pattern without ** matches one directory only', async () => {
    expect(h.text(await h.call('glob', { pattern: '*.py' }))).toContain('use "**/*.py" for any depth');
  });

  it('refuses .. in patterns and paths outside the workspace', async () => {
    expect((await h.call('glob', { pattern: '../**/*' })).error?.code).toBe('INVALID_PARAMS');
    expect((await h.call('glob', { pattern: '*', path: '/' })).error?.code).toBe('PERMISSION_DENIED');
  });
});

describe('grep pattern size', () => {
  const h = makeHarness([createGrep({ engine: rg ? 'rg' : 'js' })]);
  h.write('big.txt', `start ${'x'.repeat(MAX_PATTERN_CHARS - 6)} end\n`);
  afterAll(() => h.close());

  it('refuses a 3 MB pattern with INVALID_PARAMS saying the limit and what to do, before searching', async () => {
    const r = await h.call('grep', { pattern: 'a'.repeat(3_000_000) });
    expect(r.error).toEqual({
      code: 'INVALID_PARAMS',
      recoverable: true,
      message:
        'Invalid parameters for grep: `pattern` is 3,000,000 characters; the limit is 10,000. Search for a shorter distinctive part of the text, such as one line of it.',
    });
    expect(h.events.filter((e) => e.type === 'tool.started')).toHaveLength(0);
  });

  it('searches with a pattern exactly at the limit', async () => {
    const pattern = `start ${'x'.repeat(MAX_PATTERN_CHARS - 6)}`;
    expect(pattern).toHaveLength(MAX_PATTERN_CHARS);
    const r = await h.call('grep', { pattern, literal: true, output_mode: 'count' });
    expect(h.text(r)).toBe('big.txt:1\n\n1 matching line in 1 file.');
  });
});
