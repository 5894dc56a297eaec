// grep (both engines) and glob on a workspace with a named pipe, a socket, hard links to files
// outside, symlinks out (to a file, a directory, /proc/self/root) and ignore files that are pipes:
// nothing blocks, nothing outside is read (glob lists the hard links' names, which are inside), and
// paths naming such files are refused.
import { mkdirSync, symlinkSync } from 'node:fs';
import type { Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolResult } from '@toolbelt/core';
import { makeHarness, type Harness } from '../fs/__fixtures__/harness.js';
import { listenSocket, mkfifo, plantTraps, SECRET, withoutBlocking } from '../workspace/__fixtures__/special.js';
import { findRg } from './engine.js';
import { createGrep, glob, globFiles } from './index.js';
import { specFor } from './js/engine.js';
import { SearchPool } from './js/pool.js';
import { compilePattern } from './regex.js';

const rg = findRg();
const engines = rg ? (['rg', 'js'] as const) : (['js'] as const);
const PIPE_MESSAGE =
  'pipe is a named pipe (FIFO), not a regular file; toolbelt only reads and writes regular files. Name a regular file instead.';

/** A workspace with every trap, a pipe deeper down too, and one file inside that holds the needle. */
function trapped(h: Harness) {
  const traps = plantTraps(h.base, h.root);
  h.write('notes.txt', 'TOP-SECRET-INSIDE\n');
  h.write('sub/more.txt', 'nothing\n');
  mkfifo(join(h.root, 'sub', 'pipe2'));
  return { traps, fifos: [join(h.root, 'pipe'), join(h.root, 'sub', 'pipe2')] };
}

async function prompt(h: Harness, fifos: string[], tool: string, input: Record<string, unknown>): Promise<ToolResult> {
  const { result, rescued } = await withoutBlocking(fifos, h.base, () => h.call(tool, input));
  expect(rescued, `${tool} blocked on a named pipe`).toBe(false);
  expect(JSON.stringify(result)).not.toContain(SECRET);
  return result;
}

describe.each(engines)('grep (%s engine) and special files', (engine) => {
  const h = makeHarness([createGrep({ engine })]);
  const { fifos } = trapped(h);
  let socket: Server;
  beforeAll(async () => {
    socket = await listenSocket(join(h.root, 'sock'));
  });
  afterAll(async () => {
    socket.close();
    await h.close();
  });

  it('never reads a named pipe, a socket or a symlink out, withholds hard links out (and says so), and does not block', async () => {
    const withheld =
      ' 2 hard-linked files matched but are not shown: another name of theirs may be outside the workspace (copies and package store files are shown).';
    const files = await prompt(h, fifos, 'grep', {
      pattern: 'TOP-SECRET',
      output_mode: 'files_with_matches',
      include_ignored: true,
    });
    expect(h.text(files)).toBe(`notes.txt\n\n1 file.${withheld}`);
    expect(files.metadata).toMatchObject({ engine, withheld: 2 });
    const content = await prompt(h, fifos, 'grep', { pattern: 'TOP-SECRET' });
    expect(h.text(content)).toBe(`notes.txt\n1:TOP-SECRET-INSIDE\n\n1 matching line in 1 file.${withheld}`);
  });

  it('refuses a named pipe or a hard link named as path, at once, and paths through symlinks out', async () => {
    const pipe = await prompt(h, fifos, 'grep', { pattern: 'x', path: 'pipe' });
    expect(pipe.error).toMatchObject({ code: 'INVALID_PARAMS', message: PIPE_MESSAGE });
    const hard = await h.call('grep', { pattern: 'TOP', path: 'hard.txt' });
    expect(hard.error).toMatchObject({
      code: 'INVALID_PARAMS',
      message:
        'hard.txt has 2 hard links; one may point outside the workspace, so toolbelt refuses it. Copy the file instead of hard-linking it.',
    });
    for (const path of ['link-out.txt', 'dir-out', 'procroot', 'procroot/etc']) {
      expect((await h.call('grep', { pattern: 'root', path })).error?.code, path).toBe('PERMISSION_DENIED');
    }
  });
});

describe.each(engines)('grep (%s engine) and ignore files that are named pipes', (engine) => {
  const h = makeHarness([createGrep({ engine }), glob]);
  const elsewhere = join(h.base, 'elsewhere');
  mkdirSync(elsewhere);
  const fifos = [mkfifo(join(h.root, '.ignore')), mkfifo(join(elsewhere, 'fifo'))];
  h.write('found.txt', 'needle\n');
  h.write('sub/deeper.txt', 'needle\n');
  // rg follows a symlinked ignore file: this one leads to a pipe outside.
  symlinkSync(fifos[1], join(h.root, 'sub', '.gitignore'));
  afterAll(() => h.close());

  it('finds what is there instead of waiting on them', async () => {
    const r = await prompt(h, fifos, 'grep', { pattern: 'needle', output_mode: 'files_with_matches' });
    expect(h.text(r)).toBe('found.txt\nsub/deeper.txt\n\n2 files.');
    // rg would wait forever: it is stopped and the JS engine answers, saying why.
    if (engine === 'rg')
      expect(r.metadata).toMatchObject({
        engine: 'js',
        fallback: 'rg would wait forever on .ignore, which is not a regular file',
      });
  });

  it('does not stop glob either', async () => {
    expect(h.text(await prompt(h, fifos, 'glob', { pattern: '**/*.txt' }))).toMatch(
      /^(found\.txt\nsub\/deeper\.txt|sub\/deeper\.txt\nfound\.txt)$/,
    );
  });
});

describe('the JS grep engine', () => {
  const h = makeHarness([]);
  const { fifos } = trapped(h);
  const pool = new SearchPool(1);
  afterAll(async () => {
    await pool.close();
    await h.close();
  });

  it('skips a named pipe handed to a worker (a file swapped after the walk) without blocking, and marks hits in hard links', async () => {
    const q = {
      root: h.root,
      isFile: false,
      mode: 'files_with_matches' as const,
      before: 0,
      after: 0,
      multiline: false,
      globs: [],
      typeGlobs: [],
      ignoreFiles: false,
      maxResults: 10,
      signal: new AbortController().signal,
    };
    const files = ['pipe', 'hard.txt', 'big-hard.txt', 'notes.txt'].map((f) => join(h.root, f));
    const { result, rescued } = await withoutBlocking(fifos, h.base, () =>
      pool.search(files, specFor(q, compilePattern('TOP-SECRET')), new SharedArrayBuffer(4)),
    );
    expect(rescued).toBe(false);
    expect(result.map((hit) => [hit.path, hit.link?.nlink])).toEqual([
      [join(h.root, 'hard.txt'), 2],
      [join(h.root, 'big-hard.txt'), 2],
      [join(h.root, 'notes.txt'), undefined],
    ]);
  });
});

describe('glob and special files', () => {
  const h = makeHarness([glob]);
  const { fifos } = trapped(h);
  afterAll(() => h.close());

  it('lists regular files, hard links included (names only): no pipe, symlink, nor anything behind a symlink', async () => {
    const r = await prompt(h, fifos, 'glob', { pattern: '**/*', include_ignored: true });
    expect(h.text(r).split('\n').sort()).toEqual(['big-hard.txt', 'hard.txt', 'notes.txt', 'sub/more.txt']);
  });

  it('refuses a pattern whose directory part leads out of the workspace through a symlink', async () => {
    const proc = await h.call('glob', { pattern: 'procroot/etc/*' });
    expect(proc.error?.code).toBe('PERMISSION_DENIED');
    expect(proc.error?.message).toMatch(
      /^the pattern "procroot\/etc\/\*" starts in a directory glob may not list: .*procroot\/etc is outside the workspace \(it resolves to \/etc\)/,
    );
    expect((await h.call('glob', { pattern: 'dir-out/**' })).error?.code).toBe('PERMISSION_DENIED');
    expect(JSON.stringify(proc)).not.toContain('passwd');
  });

  it('as a library function finds nothing through such a symlink', async () => {
    expect(await globFiles(h.root, 'procroot/etc/*')).toEqual([]);
    expect(await globFiles(h.root, 'dir-out/*.txt')).toEqual([]);
  });

  it('refuses a named pipe or a symlink out as path', async () => {
    const pipe = await prompt(h, fifos, 'glob', { pattern: '*', path: 'pipe' });
    expect(pipe.error).toMatchObject({
      code: 'INVALID_PARAMS',
      message: 'pipe is a named pipe (FIFO); path must be a directory to search in.',
    });
    expect((await h.call('glob', { pattern: '*', path: 'procroot' })).error?.code).toBe('PERMISSION_DENIED');
    expect((await h.call('glob', { pattern: '*', path: 'dir-out' })).error?.code).toBe('PERMISSION_DENIED');
  });
});
