import { existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeHarness } from './__fixtures__/harness.js';
import { fsTools } from './index.js';

const h = makeHarness(fsTools());
afterAll(() => h.close());
const at = (rel: string) => join(h.root, rel);

describe('append_file', () => {
  it('adds to the end of an existing file', async () => {
    h.write('log.txt', 'one\n');
    const r = await h.call('append_file', { path: 'log.txt', content: 'two\n' });
    expect(h.text(r)).toBe('Appended 4 bytes to log.txt.');
    expect(readFileSync(at('log.txt'), 'utf8')).toBe('one\ntwo\n');
  });

  it('requires the file to exist', async () => {
    const r = await h.call('append_file', { path: 'none.txt', content: 'x' });
    expect(r.error).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('write_file') });
  });
});

describe('delete_file', () => {
  it('deletes a file and is classified destructive', async () => {
    h.write('gone.txt', 'x');
    expect((await h.executor.explain({ tool: 'delete_file', input: { path: 'gone.txt' } })).effect).toBe('destructive');
    const r = await h.call('delete_file', { path: 'gone.txt' });
    expect(h.text(r)).toBe('Deleted file gone.txt (1 B).');
    expect(existsSync(at('gone.txt'))).toBe(false);
  });

  it('deletes a symlink, not its target', async () => {
    h.write('target.txt', 'keep');
    symlinkSync('target.txt', at('alias'));
    await h.call('delete_file', { path: 'alias' });
    expect(existsSync(at('alias'))).toBe(false);
    expect(readFileSync(at('target.txt'), 'utf8')).toBe('keep');
  });

  it('needs recursive for a non-empty directory', async () => {
    h.write('tree/a/b.txt', 'b');
    h.write('tree/c.txt', 'c');
    expect((await h.call('delete_file', { path: 'tree' })).error?.message).toContain('recursive: true');
    const r = await h.call('delete_file', { path: 'tree', recursive: true });
    expect(h.text(r)).toBe('Deleted directory tree with 2 files and 1 subdirectory (2 B).');
    expect(existsSync(at('tree'))).toBe(false);
  });

  it('refuses a recursive delete that would remove protected files', async () => {
    h.write('proj/.git/HEAD', 'ref');
    h.write('proj/src/x.ts', 'x');
    const r = await h.call('delete_file', { path: 'proj', recursive: true });
    expect(r.error?.code).toBe('PERMISSION_DENIED');
    expect(existsSync(at('proj/.git/HEAD'))).toBe(true);
  });

  it('never deletes the workspace root', async () => {
    expect((await h.call('delete_file', { path: '.', recursive: true })).error?.code).toBe('PERMISSION_DENIED');
    expect(existsSync(h.root)).toBe(true);
  });
});

describe('create_directory', () => {
  it('creates parents and succeeds when it exists', async () => {
    expect(h.text(await h.call('create_directory', { path: 'n/e/w' }))).toBe('Created directory n/e/w.');
    expect(statSync(at('n/e/w')).isDirectory()).toBe(true);
    expect(h.text(await h.call('create_directory', { path: 'n/e/w' }))).toBe('n/e/w already exists.');
  });

  it('refuses when a file is in the way', async () => {
    h.write('plain', 'x');
    expect((await h.call('create_directory', { path: 'plain' })).error?.code).toBe('CONFLICT');
  });
});

describe('copy_file', () => {
  it('copies into a directory under the same name and keeps the mode', async () => {
    const src = h.write('bin/tool.sh', '#!/bin/sh\n');
    const { chmodSync } = await import('node:fs');
    chmodSync(src, 0o700);
    mkdirSync(at('dest'));
    const r = await h.call('copy_file', { source: 'bin/tool.sh', destination: 'dest' });
    expect(h.text(r)).toBe('Copied bin/tool.sh to dest/tool.sh (10 B, new file).');
    expect(readFileSync(at('dest/tool.sh'), 'utf8')).toBe('#!/bin/sh\n');
    expect(statSync(at('dest/tool.sh')).mode & 0o777).toBe(0o700);
  });

  it('refuses to overwrite unless asked', async () => {
    h.write('one.txt', '1');
    h.write('two.txt', '2');
    expect((await h.call('copy_file', { source: 'one.txt', destination: 'two.txt' })).error?.code).toBe('CONFLICT');
    await h.call('copy_file', { source: 'one.txt', destination: 'two.txt', overwrite: true });
    expect(readFileSync(at('two.txt'), 'utf8')).toBe('1');
  });

  it('refuses to copy a protected file or out of the workspace', async () => {
    h.write('.env', 'SECRET=1');
    expect((await h.call('copy_file', { source: '.env', destination: 'leak.txt' })).error?.code).toBe(
      'PERMISSION_DENIED',
    );
    expect((await h.call('copy_file', { source: 'one.txt', destination: '../out.txt' })).error?.code).toBe(
      'PERMISSION_DENIED',
    );
    expect(existsSync(join(h.base, 'out.txt'))).toBe(false);
  });
});

describe('move_file', () => {
  it('renames a file and moves directories', async () => {
    h.write('old.txt', 'o');
    await h.call('move_file', { source: 'old.txt', destination: 'renamed/new.txt' });
    expect(readFileSync(at('renamed/new.txt'), 'utf8')).toBe('o');
    expect(existsSync(at('old.txt'))).toBe(false);
    mkdirSync(at('box'));
    await h.call('move_file', { source: 'renamed', destination: 'box' });
    expect(readFileSync(at('box/renamed/new.txt'), 'utf8')).toBe('o');
  });

  it('is destructive when it would replace a file, and refuses without overwrite', async () => {
    h.write('m1.txt', '1');
    h.write('m2.txt', '2');
    expect((await h.call('move_file', { source: 'm1.txt', destination: 'm2.txt' })).error?.code).toBe('CONFLICT');
    expect(
      (
        await h.executor.explain({
          tool: 'move_file',
          input: { source: 'm1.txt', destination: 'm2.txt', overwrite: true },
        })
      ).effect,
    ).toBe('destructive');
    expect(
      (await h.executor.explain({ tool: 'move_file', input: { source: 'm1.txt', destination: 'm3.txt' } })).effect,
    ).toBe('write');
  });

  it('moves a symlink itself and refuses moving a directory into itself', async () => {
    symlinkSync('m1.txt', at('lnk'));
    await h.call('move_file', { source: 'lnk', destination: 'lnk2' });
    expect(lstatSync(at('lnk2')).isSymbolicLink()).toBe(true);
    mkdirSync(at('self/inner'), { recursive: true });
    expect((await h.call('move_file', { source: 'self', destination: 'self/inner/x' })).error?.message).toContain(
      'inside itself',
    );
  });
});

describe('list_directory', () => {
  it('lists directories first, then files with sizes, links with @', async () => {
    const l = makeHarness(fsTools());
    l.write('b.txt', 'bb');
    l.write('a.txt', 'a');
    l.write('sub/inner.txt', 'i');
    symlinkSync('a.txt', join(l.root, 'link'));
    expect(l.text(await l.call('list_directory', {}))).toBe('./\n  sub/\n  a.txt  1 B\n  b.txt  2 B\n  link@');
    await l.close();
  });

  it('goes deeper on request but does not expand ignored, VCS or credential directories', async () => {
    const l = makeHarness(fsTools());
    l.write('.gitignore', 'dist/\n');
    l.write('dist/out.js', 'x');
    l.write('.git/HEAD', 'x');
    l.write('.ssh/id_rsa', 'k');
    l.write('src/lib/util.ts', 'u');
    expect(l.text(await l.call('list_directory', { path: '.', depth: 3 }))).toBe(
      [
        './',
        '  .git/  (version control, not expanded)',
        '  .ssh/  (protected, not expanded)',
        '  dist/  (ignored, not expanded)',
        '  src/',
        '    lib/',
        '      util.ts  1 B',
        '  .gitignore  6 B',
      ].join('\n'),
    );
    await l.close();
  });

  it('caps long listings and counts the rest', async () => {
    const l = makeHarness(fsTools());
    for (let i = 0; i < 520; i++) writeFileSync(join(l.root, `f${String(i).padStart(3, '0')}`), '');
    const text = l.text(await l.call('list_directory', {}));
    expect(text.split('\n').length).toBe(502);
    expect(text).toContain('(20 more entries not shown');
    await l.close();
  });

  it('counts entries left out below the cap, inside unlisted subdirectories too', async () => {
    const l = makeHarness(fsTools());
    // 10 directories of 60 files: 610 entries at depth 2, of which 500 are shown.
    for (let d = 0; d < 10; d++) {
      mkdirSync(join(l.root, `d${d}`));
      for (let i = 0; i < 60; i++) writeFileSync(join(l.root, `d${d}`, `f${String(i).padStart(2, '0')}`), '');
    }
    const text = l.text(await l.call('list_directory', { depth: 2 }));
    expect(text.split('\n').length).toBe(502);
    expect(text).toContain('(110 more entries not shown');
    await l.close();
  });

  it('refuses files and protected directories', async () => {
    h.write('file.txt', 'x');
    expect((await h.call('list_directory', { path: 'file.txt' })).error?.message).toContain('use read_file');
    h.write('.aws/config', 'x');
    expect((await h.call('list_directory', { path: '.aws' })).error?.code).toBe('PERMISSION_DENIED');
  });
});
