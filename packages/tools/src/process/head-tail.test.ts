import { describe, expect, it } from 'vitest';
import { HeadTailBuffer, utf8End, utf8Start } from './head-tail.js';

describe('HeadTailBuffer', () => {
  it('keeps small output whole', () => {
    const b = new HeadTailBuffer(100);
    b.push(Buffer.from('hello\n'));
    b.push(Buffer.from('world\n'));
    expect(b.read()).toEqual({ text: 'hello\nworld\n', totalBytes: 12, omittedBytes: 0 });
  });

  it('keeps the head and the tail of large output and states the total', () => {
    const b = new HeadTailBuffer(1000);
    const lines = Array.from({ length: 10_000 }, (_, i) => `line ${i}\n`);
    for (const l of lines) b.push(Buffer.from(l));
    const total = Buffer.byteLength(lines.join(''));
    const r = b.read();
    expect(r.totalBytes).toBe(total);
    expect(r.text.startsWith('line 0\nline 1\n')).toBe(true);
    expect(r.text.endsWith('line 9998\nline 9999\n')).toBe(true);
    expect(r.text).toContain(`bytes omitted; ${total.toLocaleString('en-US')} bytes in total`);
    expect(r.omittedBytes).toBeGreaterThan(total - 1000);
    expect(Buffer.byteLength(r.text)).toBeLessThan(1200);
  });

  it('says where the whole stream was saved, all of it or its start', () => {
    const b = new HeadTailBuffer(100);
    b.push(Buffer.from('x'.repeat(60)));
    expect(b.contents().toString()).toBe('x'.repeat(60));
    b.push(Buffer.from('y'.repeat(500)));
    expect(b.read({ path: '/tmp/o/1-stdout.log', bytes: 560 }).text).toContain(
      '; 560 bytes in total; all of them in /tmp/o/1-stdout.log ...]',
    );
    expect(b.read({ path: '/tmp/o/1-stdout.log', bytes: 200 }).text).toContain(
      '; 560 bytes in total; the first 200 in /tmp/o/1-stdout.log ...]',
    );
    expect(b.read().text).toContain('; 560 bytes in total ...]');
  });

  it('never cuts a multi-byte character in half', () => {
    const b = new HeadTailBuffer(101);
    for (let i = 0; i < 500; i++) b.push(Buffer.from('ü€😀'));
    expect(b.read().text).not.toContain('\uFFFD');
  });

  it('finds UTF-8 boundaries', () => {
    const euro = Buffer.from('a€'); // 61 e2 82 ac
    expect(utf8End(euro.subarray(0, 3))).toBe(1);
    expect(utf8End(euro)).toBe(4);
    expect(utf8Start(euro.subarray(2))).toBe(2);
  });
});
