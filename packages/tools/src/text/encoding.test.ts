import { describe, expect, it } from 'vitest';
import { looksBinary, sniffFormat } from './binary.js';
import { decodeText, detectEol, encodeText, matchEol } from './encoding.js';

describe('line endings and BOM', () => {
  it('detects LF, CRLF, mixed and none', () => {
    expect(detectEol('a\nb\n')).toBe('lf');
    expect(detectEol('a\r\nb\r\n')).toBe('crlf');
    expect(detectEol('a\r\nb\n')).toBe('mixed');
    expect(detectEol('abc')).toBe('none');
  });

  it('round-trips a UTF-8 BOM', () => {
    const bytes = Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from('hé\r\n')]);
    const { text, format } = decodeText(bytes);
    expect(text).toBe('hé\r\n');
    expect(format).toEqual({ bom: true, eol: 'crlf' });
    expect(encodeText(text, format).equals(bytes)).toBe(true);
  });

  it('decodes UTF-16 with a byte-order mark', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hi\n', 'utf16le')]);
    expect(decodeText(le).text).toBe('hi\n');
    const be = Buffer.from(Buffer.from('hi\n', 'utf16le')).swap16();
    expect(decodeText(Buffer.concat([Buffer.from([0xfe, 0xff]), be])).text).toBe('hi\n');
  });

  it('gives new content CRLF when the old file was CRLF, unless it chose its own', () => {
    expect(matchEol('a\nb\n', 'crlf')).toBe('a\r\nb\r\n');
    expect(matchEol('a\r\nb\n', 'crlf')).toBe('a\r\nb\n');
    expect(matchEol('a\nb\n', 'lf')).toBe('a\nb\n');
  });
});

describe('binary detection', () => {
  it('calls text text, and NUL bytes or control noise binary', () => {
    expect(looksBinary(Buffer.from('const x = 1;\n\tconsole.log("\x1b[31mred")\n'))).toBe(false);
    expect(looksBinary(Buffer.from([0x41, 0x00, 0x42]))).toBe(true);
    expect(looksBinary(Buffer.from(Array.from({ length: 100 }, (_, i) => (i % 3 === 0 ? 1 : 65))))).toBe(true);
    expect(looksBinary(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hi', 'utf16le')]))).toBe(false);
  });

  it('names common formats by their magic bytes', () => {
    expect(sniffFormat(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toEqual({
      kind: 'PNG image',
      mime: 'image/png',
    });
    expect(sniffFormat(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))?.mime).toBe('image/webp');
    expect(sniffFormat(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeUndefined();
    expect(sniffFormat(Buffer.from('%PDF-1.7'))?.kind).toBe('PDF document');
    expect(sniffFormat(Buffer.from('hello'))).toBeUndefined();
  });
});
