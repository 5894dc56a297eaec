// Reading a window of lines from a file of any size with bounded memory: the file is scanned in
// chunks, only the lines in the window are kept, and a line longer than the cut keeps only its head.
// A tail window is found by scanning backwards for newlines, then read forwards like any other.
import type { FileHandle } from 'node:fs/promises';

interface Line {
  /** 1-based line number. */
  n: number;
  /** The text, without its line ending, cut to maxLineChars. */
  text: string;
  /** Bytes in the whole line, when it was cut. */
  cutFrom?: number;
}

export interface LineWindow {
  lines: Line[];
  /** Lines in the file, when the scan went to the end. */
  total?: number;
  /** Lines exist after the last one returned. */
  more: boolean;
  /** The window stopped early because maxChars of text were collected. */
  full: boolean;
}

export interface WindowOptions {
  /** Line to start at, 1-based. */
  offset: number;
  limit: number;
  maxLineChars: number;
  /** Stop adding lines once this much text is collected. */
  maxChars: number;
  /** Keep scanning to the end to count the lines, when the file is at most this big. Default 0. */
  countUpTo?: number;
}

const CHUNK = 256 * 1024;
const decoder = new TextDecoder('utf-8');

function decodeLine(parts: Buffer[], bytes: number, maxLineChars: number): { text: string; cut: boolean } {
  let text = decoder.decode(parts.length === 1 ? parts[0] : Buffer.concat(parts));
  if (text.endsWith('\r')) text = text.slice(0, -1);
  if (text.length > maxLineChars) return { text: text.slice(0, maxLineChars), cut: true };
  return { text, cut: bytes > maxLineChars * 4 };
}

/** The window's lines as the scan passes them: each line's bytes (up to the cut), then its end. */
class WindowLines {
  readonly lines: Line[] = [];
  /** maxChars of text are collected: no more lines are taken. */
  full = false;
  /** The line being read, 1-based. */
  lineNo: number;
  private readonly last: number;
  private readonly keepBytes: number;
  private chars = 0;
  private parts: Buffer[] = [];
  private kept = 0;
  private lineBytes = 0;

  constructor(
    private readonly opts: WindowOptions,
    startLine: number,
  ) {
    this.lineNo = startLine;
    this.last = opts.offset + opts.limit - 1;
    this.keepBytes = opts.maxLineChars * 4 + 4;
  }

  /** A piece of the line being read; only a line of the window keeps it, up to the cut. */
  keep(slice: Buffer): void {
    this.lineBytes += slice.length;
    if (!this.inWindow() || this.kept >= this.keepBytes) return;
    const take = slice.subarray(0, this.keepBytes - this.kept);
    this.parts.push(Buffer.from(take));
    this.kept += take.length;
  }

  /** The line being read ended: at a newline, or at the end of the file. */
  endLine(): void {
    if (this.inWindow()) {
      const { text, cut } = decodeLine(this.parts, this.lineBytes, this.opts.maxLineChars);
      if (this.lines.length > 0 && this.chars + text.length > this.opts.maxChars) this.full = true;
      else {
        this.lines.push(cut ? { n: this.lineNo, text, cutFrom: this.lineBytes } : { n: this.lineNo, text });
        // The budget counts the file's text and newlines; the line-number prefix is not charged.
        this.chars += text.length + 1;
      }
    }
    this.parts = [];
    this.kept = 0;
    this.lineBytes = 0;
    this.lineNo++;
  }

  /** Bytes of a line with no newline yet were read. */
  get partial(): boolean {
    return this.lineBytes > 0;
  }

  /** The window is behind the scan (or full): the rest of the file can only be counted. */
  get past(): boolean {
    return this.lineNo > this.last || this.full;
  }

  private inWindow(): boolean {
    return this.lineNo >= this.opts.offset && this.lineNo <= this.last && !this.full;
  }
}

/**
 * Reads lines [offset, offset+limit) starting the scan at byte `startByte`, which must be the
 * start of line `startLine`.
 */
export async function readWindow(
  fh: FileHandle,
  size: number,
  opts: WindowOptions,
  startByte = 0,
  startLine = 1,
): Promise<LineWindow> {
  const collected = new WindowLines(opts, startLine);
  // No bigger than the file: read_file is called often on small files, and big buffers cost GC.
  const buf = Buffer.allocUnsafe(Math.max(1, Math.min(CHUNK, size - startByte)));
  let pos = startByte;
  let done = false;
  const countAll = size <= (opts.countUpTo ?? 0);

  while (!done && pos < size) {
    const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, size - pos), pos);
    if (bytesRead === 0) break;
    pos += bytesRead;
    const chunk = buf.subarray(0, bytesRead);
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      collected.keep(chunk.subarray(start, nl));
      collected.endLine();
      start = nl + 1;
      if (collected.past && !countAll) {
        done = true;
        break;
      }
    }
    if (!done) collected.keep(chunk.subarray(start));
  }
  const reachedEnd = !done;
  if (reachedEnd && collected.partial) collected.endLine();
  const { lines, full } = collected;
  const total = reachedEnd ? collected.lineNo - 1 : undefined;
  const lastShown = lines.length ? lines[lines.length - 1].n : opts.offset - 1;
  const more = total === undefined ? true : total > lastShown;
  return total === undefined ? { lines, more, full } : { lines, total, more, full };
}

/** Byte offset where the last `count` lines of the file begin (a final newline ends a line, it does not start one). */
export async function tailStart(fh: FileHandle, size: number, count: number): Promise<number> {
  if (count <= 0 || size === 0) return size;
  const buf = Buffer.allocUnsafe(Math.max(1, Math.min(CHUNK, size)));
  let end = size;
  let seen = 0;
  // A newline as the very last byte terminates the last line; it is not a separator to count.
  let skipFinal = true;
  while (end > 0) {
    const from = Math.max(0, end - buf.length);
    const { bytesRead } = await fh.read(buf, 0, end - from, from);
    for (let i = bytesRead - 1; i >= 0; i--) {
      if (buf[i] !== 10) continue;
      if (skipFinal && from + i === size - 1) continue;
      if (++seen === count) return from + i + 1;
    }
    skipFinal = false;
    end = from;
  }
  return 0;
}

/** Newlines in bytes [0, end): the number of lines before the one starting at `end`. */
export async function countNewlines(fh: FileHandle, end: number): Promise<number> {
  const buf = Buffer.allocUnsafe(4 * 1024 * 1024);
  let pos = 0;
  let n = 0;
  while (pos < end) {
    const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, end - pos), pos);
    if (bytesRead === 0) break;
    const chunk = buf.subarray(0, bytesRead);
    for (let i = chunk.indexOf(10, 0); i !== -1; i = chunk.indexOf(10, i + 1)) n++;
    pos += bytesRead;
  }
  return n;
}

/** The last `count` lines, numbered from the start of the file. */
export async function readTail(
  fh: FileHandle,
  size: number,
  count: number,
  opts: Omit<WindowOptions, 'offset' | 'limit'>,
): Promise<LineWindow> {
  const start = await tailStart(fh, size, count);
  const before = await countNewlines(fh, start);
  const window = await readWindow(
    fh,
    size,
    { ...opts, offset: before + 1, limit: count, countUpTo: Number.MAX_SAFE_INTEGER },
    start,
    before + 1,
  );
  return window;
}

/** Splits in-memory text (a .docx, a UTF-16 file) into the same window shape; `tail` picks the last lines. */
export function windowOfText(text: string, opts: WindowOptions, tail?: number): LineWindow {
  const all = text.split('\n');
  if (all.length && all[all.length - 1] === '') all.pop();
  const total = all.length;
  const lines: Line[] = [];
  let chars = 0;
  let full = false;
  const from = tail !== undefined ? Math.max(1, total - Math.min(tail, opts.limit) + 1) : Math.max(1, opts.offset);
  for (let n = from; n <= Math.min(total, from + opts.limit - 1); n++) {
    const raw = all[n - 1];
    const t = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const cut = t.length > opts.maxLineChars;
    const shown = cut ? t.slice(0, opts.maxLineChars) : t;
    if (lines.length > 0 && chars + shown.length > opts.maxChars) {
      full = true;
      break;
    }
    lines.push(cut ? { n, text: shown, cutFrom: Buffer.byteLength(raw) } : { n, text: shown });
    chars += shown.length + 1;
  }
  const lastShown = lines.length ? lines[lines.length - 1].n : from - 1;
  return { lines, total, more: total > lastShown, full };
}
