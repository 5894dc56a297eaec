// Output of any size in bounded memory: the first bytes, the last bytes, and the total count.
// A 1 GB stream costs `maxBytes` of memory, and the model still sees how it began and ended.
import { ByteRing } from './byte-ring.js';

/** Share of the budget kept from the start; the rest is the tail, where errors usually are. */
const HEAD_SHARE = 0.4;
/** How far we look for a newline to cut at, so the model gets whole lines at the seams. */
const LINE_SLACK = 256;

export interface BufferedText {
  text: string;
  /** Bytes the stream produced in all. */
  totalBytes: number;
  /** Bytes left out of `text`. */
  omittedBytes: number;
  /** Where the whole stream was saved when `text` leaves some out (see spill.ts). */
  file?: SavedOutput;
}

export interface SavedOutput {
  path: string;
  /** Bytes in the file: the whole stream, or its start when the file's limit was reached. */
  bytes: number;
  /** Why writing stopped early (a full disk); the file holds `bytes`. */
  error?: string;
}

export class HeadTailBuffer {
  private readonly headLimit: number;
  // Allocated on first output: most commands print little or nothing.
  private head: Buffer | undefined;
  private headLen = 0;
  private readonly tail: ByteRing;

  constructor(readonly maxBytes: number) {
    if (!Number.isInteger(maxBytes) || maxBytes < 2)
      throw new RangeError(`maxBytes must be an integer >= 2, not ${maxBytes}`);
    this.headLimit = Math.max(1, Math.floor(maxBytes * HEAD_SHARE));
    this.tail = new ByteRing(maxBytes - this.headLimit);
  }

  get totalBytes(): number {
    return this.headLen + this.tail.total;
  }

  push(chunk: Uint8Array): void {
    let rest = chunk;
    if (this.headLen < this.headLimit) {
      const take = Math.min(this.headLimit - this.headLen, rest.length);
      this.head ??= Buffer.allocUnsafe(this.headLimit);
      this.head.set(rest.subarray(0, take), this.headLen);
      this.headLen += take;
      rest = rest.subarray(take);
    }
    if (rest.length) this.tail.write(rest);
  }

  /** Everything pushed so far; whole only while `totalBytes <= maxBytes` (nothing dropped yet). */
  contents(): Buffer {
    return Buffer.concat([this.head?.subarray(0, this.headLen) ?? Buffer.alloc(0), this.tail.readFrom(0).data]);
  }

  /** The text, with a marker line where bytes were left out (saying where they were saved, if given). */
  read(saved?: SavedOutput): BufferedText {
    const tail = this.tail;
    const total = this.totalBytes;
    const head = this.head?.subarray(0, this.headLen) ?? Buffer.alloc(0);
    if (tail.start === 0) {
      const all = Buffer.concat([head, tail.readFrom(0).data]);
      return { text: all.toString('utf8'), totalBytes: total, omittedBytes: 0 };
    }
    const headPart = head.subarray(0, lineEnd(head));
    const tailBytes = tail.readFrom(0).data;
    const tailPart = tailBytes.subarray(lineStart(tailBytes));
    const omitted = total - headPart.length - tailPart.length;
    const where = saved?.bytes
      ? `; ${saved.bytes === total ? 'all of them' : `the first ${saved.bytes.toLocaleString('en-US')}`} in ${saved.path}`
      : '';
    const marker = `\n[... ${omitted.toLocaleString('en-US')} bytes omitted; ${total.toLocaleString('en-US')} bytes in total${where} ...]\n`;
    return {
      text: headPart.toString('utf8') + marker + tailPart.toString('utf8'),
      totalBytes: total,
      omittedBytes: omitted,
      ...(saved ? { file: saved } : {}),
    };
  }
}

/** Where a head cut should end: after a nearby newline, else before a split UTF-8 character. */
function lineEnd(buf: Buffer): number {
  const nl = buf.lastIndexOf(10);
  if (nl >= 0 && buf.length - nl <= LINE_SLACK) return nl + 1;
  return utf8End(buf);
}

/** Where a tail cut should start: after a nearby newline, else after a split UTF-8 character. */
function lineStart(buf: Buffer): number {
  const nl = buf.indexOf(10);
  if (nl >= 0 && nl < LINE_SLACK) return nl + 1;
  return utf8Start(buf);
}

/** Length of `buf` without an incomplete UTF-8 sequence at its end. */
export function utf8End(buf: Uint8Array): number {
  const len = buf.length;
  for (let i = len - 1; i >= 0 && i >= len - 4; i--) {
    const b = buf[i];
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return i + need > len ? i : len;
  }
  return len;
}

/** Index of the first byte that is not a stray UTF-8 continuation byte. */
export function utf8Start(buf: Uint8Array): number {
  let i = 0;
  while (i < buf.length && i < 3 && (buf[i] & 0xc0) === 0x80) i++;
  return i;
}
