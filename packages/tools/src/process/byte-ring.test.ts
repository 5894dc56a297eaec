import { describe, expect, it } from 'vitest';
import { ByteRing } from './byte-ring.js';

const bytes = (s: string) => Buffer.from(s);

describe('ByteRing', () => {
  it('returns everything written while it fits', () => {
    const r = new ByteRing(10);
    r.write(bytes('abc'));
    r.write(bytes('def'));
    expect(r.readFrom(0)).toMatchObject({ dropped: 0, start: 0 });
    expect(r.readFrom(0).data.toString()).toBe('abcdef');
    expect(r.readFrom(4).data.toString()).toBe('ef');
  });

  it('keeps the most recent bytes across wrap-around and says how many a reader missed', () => {
    const r = new ByteRing(5);
    r.write(bytes('abcd'));
    r.write(bytes('efg'));
    expect(r.total).toBe(7);
    expect(r.readFrom(0).data.toString()).toBe('cdefg');
    expect(r.readFrom(0).dropped).toBe(2);
    expect(r.readFrom(3).data.toString()).toBe('defg');
    expect(r.readFrom(3).dropped).toBe(0);
  });

  it('keeps the tail of a chunk larger than the ring, at the right offsets', () => {
    const r = new ByteRing(4);
    r.write(bytes('xy'));
    r.write(bytes('0123456789'));
    expect(r.readFrom(0).data.toString()).toBe('6789');
    r.write(bytes('ab'));
    expect(r.readFrom(0).data.toString()).toBe('89ab');
    expect(r.readFrom(12).data.toString()).toBe('ab');
  });

  it('gives nothing for an offset at or past the end', () => {
    const r = new ByteRing(4);
    r.write(bytes('abc'));
    expect(r.readFrom(3).data.length).toBe(0);
    expect(r.readFrom(10).data.length).toBe(0);
  });

  it('matches a plain string model under random writes', () => {
    const r = new ByteRing(37);
    let all = '';
    let seed = 7;
    for (let i = 0; i < 500; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const len = seed % 60;
      const chunk = String.fromCharCode(97 + (i % 26)).repeat(len);
      r.write(bytes(chunk));
      all += chunk;
      const from = seed % (all.length + 1);
      const expected = all.slice(Math.max(from, all.length - 37));
      expect(r.readFrom(from).data.toString()).toBe(expected);
    }
  });
});
