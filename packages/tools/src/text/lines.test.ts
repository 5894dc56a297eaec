import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { countNewlines, readTail, readWindow, tailStart, windowOfText } from './lines.js';

const dir = mkdtempSync(join(tmpdir(), 'tb-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let seq = 0;
async function withFile<T>(
  content: string | Buffer,
  fn: (fh: Awaited<ReturnType<typeof open>>, size: number) => Promise<T>,
): Promise<T> {
  const p = join(dir, `f${seq++}`);
  writeFileSync(p, content);
  const fh = await open(p, 'r');
  try {
    return await fn(fh, (await fh.stat()).size);
  } finally {
    await fh.close();
  }
}

const opts = { maxLineChars: 100, maxChars: 1_000_000 };

describe('readWindow', () => {
  it('returns the requested lines with their numbers and counts the rest', async () => {
    const w = await withFile('a\nb\r\nc\nd\n', (fh, size) =>
      readWindow(fh, size, { ...opts, offset: 2, limit: 2, countUpTo: 1e6 }),
    );
    expect(w.lines).toEqual([
      { n: 2, text: 'b' },
      { n: 3, text: 'c' },
    ]);
    expect(w.total).toBe(4);
    expect(w.more).toBe(true);
  });

  it('counts a last line without a newline', async () => {
    const w = await withFile('a\nb', (fh, size) => readWindow(fh, size, { ...opts, offset: 1, limit: 10 }));
    expect(w.lines.map((l) => l.text)).toEqual(['a', 'b']);
    expect(w.total).toBe(2);
    expect(w.more).toBe(false);
  });

  it('keeps a line that crosses chunk boundaries whole, and cuts an overlong one', async () => {
    const long = 'x'.repeat(700_000);
    const w = await withFile(`first\n${long}\nlast\n`, (fh, size) =>
      readWindow(fh, size, { ...opts, offset: 1, limit: 3 }),
    );
    expect(w.lines[0]).toEqual({ n: 1, text: 'first' });
    expect(w.lines[1].text).toBe('x'.repeat(100));
    expect(w.lines[1].cutFrom).toBe(700_000);
    expect(w.lines[2]).toEqual({ n: 3, text: 'last' });
  });

  it('charges the budget for file text and newlines only, not line numbers', async () => {
    const content = Array.from({ length: 10 }, () => 'z'.repeat(99)).join('\n') + '\n';
    const budget = { maxLineChars: 100, maxChars: 500, offset: 1, limit: 100 };
    expect((await withFile(content, (fh, size) => readWindow(fh, size, budget))).lines).toHaveLength(5);
    expect(windowOfText(content, budget).lines).toHaveLength(5);
  });

  it('stops at the character budget and says so', async () => {
    const content = Array.from({ length: 100 }, (_, i) => `line ${i} ${'y'.repeat(50)}`).join('\n');
    const w = await withFile(content, (fh, size) =>
      readWindow(fh, size, { maxLineChars: 100, maxChars: 500, offset: 1, limit: 100 }),
    );
    expect(w.full).toBe(true);
    expect(w.lines.length).toBeGreaterThan(0);
    expect(w.lines.length).toBeLessThan(20);
    expect(w.more).toBe(true);
  });

  it('decodes multi-byte characters split across chunks', async () => {
    const text = 'é'.repeat(200_000);
    const w = await withFile(text + '\n', (fh, size) =>
      readWindow(fh, size, { maxLineChars: 300_000, maxChars: 1e7, offset: 1, limit: 1 }),
    );
    expect(w.lines[0].text).toBe(text);
  });
});

describe('tail', () => {
  it('finds where the last lines start, with or without a final newline', async () => {
    await withFile('a\nb\nc\n', async (fh, size) => {
      expect(await tailStart(fh, size, 1)).toBe(4);
      expect(await tailStart(fh, size, 2)).toBe(2);
      expect(await tailStart(fh, size, 9)).toBe(0);
    });
    await withFile('a\nb\nc', async (fh, size) => expect(await tailStart(fh, size, 1)).toBe(4));
  });

  it('numbers the tail from the start of the file across many chunks', async () => {
    const content = Array.from({ length: 60_000 }, (_, i) => `row ${i + 1}`).join('\n') + '\n';
    const w = await withFile(content, (fh, size) => readTail(fh, size, 3, opts));
    expect(w.lines).toEqual([
      { n: 59_998, text: 'row 59998' },
      { n: 59_999, text: 'row 59999' },
      { n: 60_000, text: 'row 60000' },
    ]);
    expect(w.total).toBe(60_000);
  });

  it('counts newlines before an offset', async () => {
    await withFile('a\nb\nc\n', async (fh) => expect(await countNewlines(fh, 4)).toBe(2));
  });
});

describe('windowOfText', () => {
  it('windows in-memory text like a file', () => {
    const w = windowOfText('a\nb\nc\n', { ...opts, offset: 3, limit: 5 });
    expect(w.lines).toEqual([{ n: 3, text: 'c' }]);
    expect(w.total).toBe(3);
    expect(w.more).toBe(false);
  });
});
