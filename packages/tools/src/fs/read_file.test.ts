import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDocx, PNG_1x1 } from './__fixtures__/docx.js';
import { makeHarness } from './__fixtures__/harness.js';
import { fsTools } from './index.js';

const h = makeHarness(fsTools());
afterAll(() => h.close());

describe('read_file', () => {
  it('returns cat -n style numbered lines', async () => {
    h.write('a.txt', 'first\nsecond\n');
    const r = await h.call('read_file', { path: 'a.txt' });
    expect(r.status).toBe('success');
    expect(h.text(r)).toBe('1\tfirst\n2\tsecond');
  });

  it('reads a window with offset and limit and says how to continue', async () => {
    h.write('many.txt', Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
    const r = await h.call('read_file', { path: 'many.txt', offset: 10, limit: 3 });
    expect(h.text(r)).toBe(
      '10\tline 10\n11\tline 11\n12\tline 12\n(showing lines 10-12 of 50; call read_file with offset=13 to read more)',
    );
    expect(r.metadata).toMatchObject({ lines: [10, 12], totalLines: 50, more: true });
  });

  it('reads the last lines with a negative offset, numbered from the start', async () => {
    const r = await h.call('read_file', { path: 'many.txt', offset: -2 });
    expect(h.text(r)).toBe('49\tline 49\n50\tline 50');
  });

  it('says when the offset is past the end', async () => {
    const r = await h.call('read_file', { path: 'many.txt', offset: 80 });
    expect(h.text(r)).toContain('has 50 lines; nothing at that offset');
  });

  it('cuts overlong lines and marks them', async () => {
    h.write('long.txt', `${'z'.repeat(5000)}\nshort\n`);
    const text = h.text(await h.call('read_file', { path: 'long.txt' }));
    expect(text).toContain(`${'z'.repeat(2000)} … [line cut at 2000 characters; it is 4.9 KB]`);
    expect(text).toContain('2\tshort');
  });

  it('stops at the character budget of a call', async () => {
    h.write('wide.txt', Array.from({ length: 2000 }, () => 'w'.repeat(100)).join('\n'));
    const r = await h.call('read_file', { path: 'wide.txt' });
    const text = h.text(r);
    expect(text.length).toBeLessThan(50_000);
    expect(text).toMatch(/output limit .* call read_file with offset=\d+ to read more\)$/);
  });

  it('shows CRLF files without carriage returns and drops a BOM', async () => {
    h.write('win.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('one\r\ntwo\r\n')]));
    expect(h.text(await h.call('read_file', { path: 'win.txt' }))).toBe('1\tone\n2\ttwo');
  });

  it('reads UTF-16 text', async () => {
    h.write('u16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\nwörld\n', 'utf16le')]));
    expect(h.text(await h.call('read_file', { path: 'u16.txt' }))).toBe('1\théllo\n2\twörld');
  });

  it('describes binary files instead of dumping them', async () => {
    h.write('blob.bin', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3, 0, 0]));
    const r = await h.call('read_file', { path: 'blob.bin' });
    expect(h.text(r)).toBe(
      'blob.bin is a binary file (10 B, ELF executable); its bytes are not shown. read_file returns text files, .docx documents and png/jpg/gif/webp images.',
    );
    expect(r.metadata).toMatchObject({ binary: true });
  });

  it('returns images as image content', async () => {
    h.write('dot.png', PNG_1x1);
    const r = await h.call('read_file', { path: 'dot.png' });
    expect(r.content[0]).toEqual({ type: 'image', mimeType: 'image/png', data: PNG_1x1.toString('base64') });
  });

  it('reads .docx documents as text', async () => {
    h.write('memo.docx', makeDocx(['Quarterly report', 'Revenue grew']));
    const r = await h.call('read_file', { path: 'memo.docx' });
    expect(h.text(r)).toBe('1\tQuarterly report\n2\tRevenue grew');
    expect(r.metadata).toMatchObject({ kind: 'docx' });
  });

  it('reports an empty file', async () => {
    h.write('empty.txt', '');
    expect(h.text(await h.call('read_file', { path: 'empty.txt' }))).toBe('(empty.txt is empty)');
  });

  it('refuses directories, missing files and paths outside the workspace with distinct codes', async () => {
    mkdirSync(join(h.root, 'adir'));
    expect((await h.call('read_file', { path: 'adir' })).error).toMatchObject({
      code: 'INVALID_PARAMS',
      message: expect.stringContaining('list_directory'),
    });
    expect((await h.call('read_file', { path: 'nope.txt' })).error).toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('does not exist'),
    });
    writeFileSync(join(h.base, 'secret.txt'), 'secret');
    symlinkSync(join(h.base, 'secret.txt'), join(h.root, 'peek'));
    const out = await h.call('read_file', { path: 'peek' });
    expect(out.error?.code).toBe('PERMISSION_DENIED');
    expect(h.text(out)).not.toContain('secret\n');
  });

  it('validates its input', async () => {
    expect((await h.call('read_file', { path: 'a.txt', limit: 0 })).error?.code).toBe('INVALID_PARAMS');
    expect((await h.call('read_file', {})).error?.code).toBe('INVALID_PARAMS');
  });

  it('explains that a workspace is needed when the executor has none', async () => {
    const bare = makeHarness(fsTools(), { withoutWorkspace: true });
    const r = await bare.call('read_file', { path: 'a.txt' });
    expect(r.error?.message).toContain('needs a workspace');
    await bare.close();
  });
});
