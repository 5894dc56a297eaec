// Line endings and byte-order marks: what a file has, so an edit can give it back unchanged.

export type Eol = 'lf' | 'crlf' | 'mixed' | 'none';

export interface TextFormat {
  /** The file starts with a UTF-8 byte-order mark. */
  bom: boolean;
  eol: Eol;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

function hasUtf8Bom(buf: Uint8Array): boolean {
  return buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
}

/** 'utf16le' / 'utf16be' when the buffer starts with a UTF-16 byte-order mark. */
export function utf16Bom(buf: Uint8Array): 'utf16le' | 'utf16be' | undefined {
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) return 'utf16le';
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff) return 'utf16be';
  return undefined;
}

export function detectEol(text: string): Eol {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  if (crlf === 0 && lf === 0) return 'none';
  if (crlf === 0) return 'lf';
  if (lf === 0) return 'crlf';
  return 'mixed';
}

/** Decodes file bytes to text without the BOM, and says how to encode it back. */
export function decodeText(buf: Uint8Array): { text: string; format: TextFormat } {
  const utf16 = utf16Bom(buf);
  if (utf16) {
    const body = Buffer.from(buf.subarray(2));
    if (utf16 === 'utf16be') body.swap16();
    const text = body.toString('utf16le');
    return { text, format: { bom: false, eol: detectEol(text) } };
  }
  const bom = hasUtf8Bom(buf);
  const text = Buffer.from(bom ? buf.subarray(3) : buf).toString('utf8');
  return { text, format: { bom, eol: detectEol(text) } };
}

/** Encodes text back to bytes in the given format (only a BOM is added; line endings are the text's). */
export function encodeText(text: string, format: Pick<TextFormat, 'bom'>): Buffer {
  const body = Buffer.from(text, 'utf8');
  return format.bom ? Buffer.concat([UTF8_BOM, body]) : body;
}

/** `\r\n` -> `\n`. */
export function toLf(text: string): string {
  return text.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text;
}

/** `\n` -> `\r\n` (text must not already hold `\r\n`). */
export function toCrlf(text: string): string {
  return text.replace(/\n/g, '\r\n');
}

/**
 * New content written over a file whose lines all end in CRLF keeps CRLF, unless the writer
 * already chose its own line endings (the content holds a `\r\n`).
 */
export function matchEol(content: string, previous: Eol): string {
  if (previous !== 'crlf' || content.includes('\r\n')) return content;
  return toCrlf(content);
}
