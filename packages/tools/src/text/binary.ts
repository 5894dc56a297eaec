// Telling text from binary by content, and naming common binary formats so a tool can describe a
// file instead of dumping it.
import { utf16Bom } from './encoding.js';

/** How many leading bytes are sniffed (git uses 8000). */
export const SNIFF_BYTES = 8192;

const SIGNATURES: { magic: number[]; offset?: number; kind: string; mime?: string }[] = [
  { magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], kind: 'PNG image', mime: 'image/png' },
  { magic: [0xff, 0xd8, 0xff], kind: 'JPEG image', mime: 'image/jpeg' },
  { magic: [0x47, 0x49, 0x46, 0x38], kind: 'GIF image', mime: 'image/gif' },
  { magic: [0x57, 0x45, 0x42, 0x50], offset: 8, kind: 'WebP image', mime: 'image/webp' },
  { magic: [0x42, 0x4d], kind: 'BMP image' },
  { magic: [0x00, 0x00, 0x01, 0x00], kind: 'ICO image' },
  { magic: [0x25, 0x50, 0x44, 0x46], kind: 'PDF document' },
  { magic: [0x50, 0x4b, 0x03, 0x04], kind: 'ZIP archive (or .docx/.xlsx/.jar)' },
  { magic: [0x1f, 0x8b], kind: 'gzip archive' },
  { magic: [0x42, 0x5a, 0x68], kind: 'bzip2 archive' },
  { magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], kind: 'xz archive' },
  { magic: [0x28, 0xb5, 0x2f, 0xfd], kind: 'zstd archive' },
  { magic: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], kind: '7-Zip archive' },
  { magic: [0x75, 0x73, 0x74, 0x61, 0x72], offset: 257, kind: 'tar archive' },
  { magic: [0x7f, 0x45, 0x4c, 0x46], kind: 'ELF executable' },
  { magic: [0x4d, 0x5a], kind: 'Windows executable' },
  { magic: [0xcf, 0xfa, 0xed, 0xfe], kind: 'Mach-O executable' },
  { magic: [0x00, 0x61, 0x73, 0x6d], kind: 'WebAssembly module' },
  { magic: [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66], kind: 'SQLite database' },
  { magic: [0x77, 0x4f, 0x46, 0x32], kind: 'WOFF2 font' },
  { magic: [0x77, 0x4f, 0x46, 0x46], kind: 'WOFF font' },
  { magic: [0x49, 0x44, 0x33], kind: 'MP3 audio' },
  { magic: [0x66, 0x74, 0x79, 0x70], offset: 4, kind: 'MP4/QuickTime video' },
  { magic: [0x4f, 0x67, 0x67, 0x53], kind: 'Ogg media' },
];

function startsWith(buf: Uint8Array, magic: number[], offset = 0): boolean {
  if (buf.length < offset + magic.length) return false;
  for (let i = 0; i < magic.length; i++) if (buf[offset + i] !== magic[i]) return false;
  return true;
}

/** The format a file's leading bytes announce, when it is one we know. */
export function sniffFormat(head: Uint8Array): { kind: string; mime?: string } | undefined {
  for (const s of SIGNATURES) {
    if (s.kind === 'WebP image' && !startsWith(head, [0x52, 0x49, 0x46, 0x46])) continue;
    if (startsWith(head, s.magic, s.offset)) return s.mime ? { kind: s.kind, mime: s.mime } : { kind: s.kind };
  }
  return undefined;
}

/**
 * True when the leading bytes are not text: a NUL byte (what git and ripgrep look for), or mostly
 * control characters. UTF-16 with a byte-order mark counts as text.
 */
export function looksBinary(head: Uint8Array): boolean {
  if (head.length === 0 || utf16Bom(head)) return false;
  const n = Math.min(head.length, SNIFF_BYTES);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = head[i];
    if (b === 0) return true;
    // Tab, LF, VT, FF, CR and ESC (ANSI colours in logs) are normal in text.
    if (b < 32 && b !== 9 && b !== 10 && b !== 11 && b !== 12 && b !== 13 && b !== 27) control++;
  }
  return control / n > 0.1;
}
