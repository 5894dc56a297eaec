// The JS grep engine's per-file search. `createSearcher` is self-contained (no imports, no outer
// names; the line scanner comes in as an argument) because worker threads run it from its source
// text; the same function runs in-process.
// Semantics follow ripgrep: files with a NUL byte are skipped, a UTF-8 BOM is dropped, UTF-16 with
// a BOM is decoded; line mode reports matching lines, multiline mode the lines each match spans;
// count is matching lines (line mode) or matches (multiline); context lines come from -A/-B.
import type { LineScanner, LineState } from './lines.js';

export type OutputMode = 'content' | 'files_with_matches' | 'count';

export interface GrepLine {
  n: number;
  text: string;
  match: boolean;
}

export interface FileHit {
  path: string;
  lines?: GrepLine[];
  count?: number;
  /** The file has more matching lines than were kept (the per-file cap). */
  more?: boolean;
  /** Set when the file has other names (hard links): its inode, for workspace/links.ts to judge. */
  link?: { dev: number; ino: number; nlink: number };
}

export interface SearchSpec {
  mode: OutputMode;
  before: number;
  after: number;
  /** Multiline requested and the pattern can match a newline. */
  multiline: boolean;
  line: [source: string, flags: string];
  prefilter: [source: string, flags: string] | null;
  multi: [source: string, flags: string];
  /** Matched lines kept per file. */
  maxLines: number;
  /** Characters kept per line. */
  keepChars: number;
  /** Files larger than this are searched in chunks of this size (line mode). */
  chunkBytes: number;
  /** Multiline mode reads whole files; larger ones are skipped. */
  multilineMaxBytes: number;
  /** Every match contains one of these: UTF-8 bytes are searched for them before decoding. */
  needles: string[] | null;
  /** Every match also contains all of these; checked on a candidate line before it is decoded. */
  also: string[] | null;
  /** open(2) flags: non-blocking and no final symlink (workspace/special.ts READ_FLAGS). */
  openFlags: number;
}

export interface SearchIo {
  openSync(path: string, flags: number): number;
  readSync(fd: number, buf: Uint8Array, offset: number, length: number, position: number | null): number;
  closeSync(fd: number): void;
  fstatSync(fd: number): { size: number; nlink: number; dev: number; ino: number; isFile(): boolean };
}

export function createSearcher(lines: LineScanner) {
  const { keep, strSrc, bufSrc, countNl, scanLines } = lines;

  function searchMultiline(text: string, spec: SearchSpec, re: RegExp): FileHit | null {
    const src = strSrc(text, null);
    re.lastIndex = 0;
    const ranges: [number, number][] = [];
    let count = 0;
    let lineNo = 1;
    let counted = 0;
    const lineOf = (offset: number) => {
      lineNo += countNl(src, counted, offset);
      counted = Math.max(counted, offset);
      return lineNo;
    };
    for (let m = re.exec(text); m; m = re.exec(text)) {
      count++;
      const start = lineOf(m.index);
      const last = m[0].length ? m.index + m[0].length - 1 : m.index;
      const end = last > m.index ? start + countNl(src, m.index, last) : start;
      ranges.push([start, end]);
      if (m[0].length === 0) re.lastIndex = m.index + ((text.codePointAt(m.index) ?? 0) > 0xffff ? 2 : 1);
      if (spec.mode === 'files_with_matches') break;
    }
    if (count === 0) return null;
    if (spec.mode === 'files_with_matches') return { path: '' };
    if (spec.mode === 'count') return { path: '', count };
    const matched = new Set<number>();
    let more = false;
    for (const [a, b] of ranges) {
      for (let i = a; i <= b; i++) {
        if (matched.size < spec.maxLines) matched.add(i);
        else if (!matched.has(i)) more = true;
      }
    }
    const wanted = new Set<number>(matched);
    for (const i of matched) for (let k = i - spec.before; k <= i + spec.after; k++) if (k >= 1) wanted.add(k);
    const lines: GrepLine[] = [];
    let n = 1;
    let pos = 0;
    const maxWanted = Math.max(...wanted);
    while (pos <= text.length && n <= maxWanted) {
      const e = text.indexOf('\n', pos);
      const end = e === -1 ? text.length : e;
      if (wanted.has(n) && !(e === -1 && pos === text.length))
        lines.push({ n, text: keep(text.slice(pos, end), spec), match: matched.has(n) });
      if (e === -1) break;
      pos = e + 1;
      n++;
    }
    return more ? { path: '', lines, more } : { path: '', lines };
  }

  function decode(buf: Uint8Array): string | null {
    if (buf.length >= 2 && ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff))) {
      const body = Buffer.from(buf.subarray(2));
      if (buf[0] === 0xfe) body.swap16();
      const text = body.toString('utf16le');
      return text.includes('\0') ? null : text;
    }
    if (Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).indexOf(0) !== -1) return null;
    const bom = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
    return Buffer.from(buf.buffer, buf.byteOffset + (bom ? 3 : 0), buf.byteLength - (bom ? 3 : 0)).toString('utf8');
  }

  function finish(st: LineState, spec: SearchSpec): FileHit | null {
    if (st.matched === 0) return null;
    if (spec.mode === 'files_with_matches') return { path: '' };
    if (spec.mode === 'count') return { path: '', count: st.matched };
    return st.more ? { path: '', lines: st.out, more: true } : { path: '', lines: st.out };
  }

  /** Big files in line mode: chunks of whole lines; any NUL anywhere discards the file, as rg does. */
  function searchChunked(
    fd: number,
    spec: SearchSpec,
    io: SearchIo,
    lineRe: RegExp,
    pre: RegExp | null,
  ): FileHit | null {
    {
      const st: LineState = { out: [], matched: 0, lastEmitted: 0, afterLeft: 0, tail: [], done: false, more: false };
      const chunk = Buffer.allocUnsafe(spec.chunkBytes);
      let carry = Buffer.alloc(0);
      let base = 1;
      let position = 0;
      let first = true;
      for (;;) {
        const got = io.readSync(fd, chunk, 0, chunk.length, position);
        position += got;
        let data = Buffer.concat([carry, chunk.subarray(0, got)]);
        if (data.indexOf(0) !== -1) return null;
        if (first && data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) data = data.subarray(3);
        first = false;
        const cut = got === 0 ? data.length : data.lastIndexOf(10) + 1;
        carry = Buffer.from(data.subarray(cut));
        if (cut > 0 && !st.done) {
          const piece = data.subarray(0, cut);
          const { needles, also } = compile(spec);
          base = scanLines(
            needles ? bufSrc(piece, needles, also) : strSrc(piece.toString('utf8'), pre),
            base,
            st,
            spec,
            lineRe,
            true,
          );
        }
        if (got === 0) break;
        // Keep reading after an early stop: a NUL later in the file still discards it.
      }
      return finish(st, spec);
    }
  }

  // One buffer reused for every file this searcher reads: large per-file allocations cost more
  // than the search. Nothing keeps a reference to it past searchFile (lines are copied to strings).
  let scratch = Buffer.allocUnsafe(1 << 20);
  function readAll(fd: number, size: number, io: SearchIo): Buffer {
    // Big files get a buffer of their own, so a worker does not keep tens of megabytes forever.
    if (size > 8 << 20) return readInto(Buffer.allocUnsafe(size), fd, size, io);
    if (scratch.length < size) scratch = Buffer.allocUnsafe(Math.min(8 << 20, Math.max(size, scratch.length * 2)));
    return readInto(scratch, fd, size, io);
  }
  function readInto(buf: Buffer, fd: number, size: number, io: SearchIo): Buffer {
    let got = 0;
    while (got < size) {
      const n = io.readSync(fd, buf, got, size - got, got);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got);
  }

  /** Regular expressions and needle bytes, built once per search (each batch brings the same spec). */
  let compiledFor: SearchSpec | undefined;
  let compiled: { lineRe: RegExp; pre: RegExp | null; multi: RegExp; needles: Buffer[] | null; also: Buffer[] };
  function compile(spec: SearchSpec) {
    if (compiledFor !== spec) {
      compiledFor = spec;
      compiled = {
        lineRe: new RegExp(spec.line[0], spec.line[1]),
        pre: spec.prefilter ? new RegExp(spec.prefilter[0], spec.prefilter[1]) : null,
        multi: new RegExp(spec.multi[0], spec.multi[1]),
        needles: spec.needles ? spec.needles.map((n) => Buffer.from(n, 'utf8')) : null,
        also: (spec.also ?? []).map((n) => Buffer.from(n, 'utf8')),
      };
    }
    return compiled;
  }
  const isUtf16 = (b: Buffer) =>
    b.length >= 2 && ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff));

  return function searchFile(path: string, spec: SearchSpec, io: SearchIo): FileHit | null {
    const { lineRe, pre, multi, needles, also } = compile(spec);
    try {
      // Opened without blocking (a file swapped for a named pipe since the walk saw it opens at
      // once) and skipped unless fstat shows a regular file. A file with other names is searched
      // and its hit marked with its inode: the caller decides whether it may be shown.
      const fd = io.openSync(path, spec.openFlags);
      let raw: Buffer;
      let named: { path: string; link?: FileHit['link'] };
      try {
        const st = io.fstatSync(fd);
        if (!st.isFile()) return null;
        named = st.nlink > 1 ? { path, link: { dev: st.dev, ino: st.ino, nlink: st.nlink } } : { path };
        const size = st.size;
        if (size > spec.chunkBytes && !spec.multiline) {
          const hit = searchChunked(fd, spec, io, lineRe, pre);
          return hit && { ...hit, ...named };
        }
        if (spec.multiline && size > spec.multilineMaxBytes) return null;
        raw = readAll(fd, size, io);
      } finally {
        io.closeSync(fd);
      }
      let hit: FileHit | null;
      if (needles && !spec.multiline && !isUtf16(raw)) {
        // Bytes first (memmem): only lines holding a needle are decoded; the NUL check (a binary
        // file is skipped) is only needed once something matched.
        const body = raw.length >= 3 && raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf ? raw.subarray(3) : raw;
        const st: LineState = { out: [], matched: 0, lastEmitted: 0, afterLeft: 0, tail: [], done: false, more: false };
        scanLines(bufSrc(body, needles, also), 1, st, spec, lineRe);
        if (st.matched > 0 && raw.indexOf(0) !== -1) return null;
        hit = finish(st, spec);
      } else {
        if (
          needles &&
          !isUtf16(raw) &&
          (!needles.some((n) => raw.indexOf(n) !== -1) || !also.every((n) => raw.indexOf(n) !== -1))
        )
          return null;
        const text = decode(raw);
        if (text === null) return null;
        if (spec.multiline) hit = searchMultiline(text, spec, multi);
        else {
          if (pre) {
            pre.lastIndex = 0;
            if (!pre.test(text)) return null;
          }
          const st: LineState = {
            out: [],
            matched: 0,
            lastEmitted: 0,
            afterLeft: 0,
            tail: [],
            done: false,
            more: false,
          };
          scanLines(strSrc(text, pre), 1, st, spec, lineRe);
          hit = finish(st, spec);
        }
      }
      return hit && { ...hit, ...named };
    } catch {
      // Vanished or unreadable files are skipped, as rg skips them.
      return null;
    }
  };
}
