// Line-mode scanning for the JS grep engine: a file's text as a string or as raw UTF-8 bytes
// (decoded one line at a time), searched from candidate to candidate with context lines, across
// chunks of one big file. Self-contained like createSearcher: worker threads run it from its
// source text.
import type { GrepLine, SearchSpec } from './core.js';

/** A file's text, as a string or as raw UTF-8 bytes (decoded one line at a time). */
export interface Src {
  length: number;
  endsWithNl: boolean;
  /** Index of the next newline at or after `from`, or -1. */
  nl(from: number): number;
  /** Index of the last newline at or before `from`, or -1. */
  prevNl(from: number): number;
  line(a: number, b: number): string;
  /** Where a match could start at or after `pos`, or -1 when none can. */
  next(pos: number): number;
}

/** Line-mode state carried across chunks of one file. */
export interface LineState {
  out: GrepLine[];
  matched: number;
  lastEmitted: number;
  afterLeft: number;
  /** The last `before` lines of the previous chunk, for context at the start of this one. */
  tail: GrepLine[];
  done: boolean;
  /** Stopped at the per-file cap with another match still there. */
  more: boolean;
}

export function createLineScanner() {
  function keep(text: string, spec: SearchSpec): string {
    const t = text.endsWith('\r') ? text.slice(0, -1) : text;
    return t.length > spec.keepChars ? t.slice(0, spec.keepChars) : t;
  }

  function strSrc(text: string, pre: RegExp | null): Src {
    return {
      length: text.length,
      endsWithNl: text.endsWith('\n'),
      nl: (from) => text.indexOf('\n', from),
      prevNl: (from) => (from < 0 ? -1 : text.lastIndexOf('\n', from)),
      line: (a, b) => text.slice(a, b),
      next(pos) {
        if (!pre) return pos;
        pre.lastIndex = pos;
        const m = pre.exec(text);
        return m ? m.index : -1;
      },
    };
  }

  /**
   * Raw bytes searched for the needles every match contains: only lines holding one (and every
   * `also` string) are decoded.
   */
  function bufSrc(buf: Buffer, needles: Buffer[], also: Buffer[]): Src {
    const at = needles.map(() => -2);
    // Next occurrence of each `also` string; only ever moves forward, so each is scanned once.
    const alsoAt = also.map(() => -2);
    const holdsAll = (start: number, end: number) => {
      for (let i = 0; i < also.length; i++) {
        if (alsoAt[i] !== -1 && alsoAt[i] < start) alsoAt[i] = buf.indexOf(also[i], start);
        if (alsoAt[i] === -1 || alsoAt[i] + also[i].length > end) return false;
      }
      return true;
    };
    const first = (pos: number) => {
      let best = -1;
      for (let i = 0; i < needles.length; i++) {
        if (at[i] !== -1 && at[i] < pos) at[i] = buf.indexOf(needles[i], pos);
        if (at[i] !== -1 && (best === -1 || at[i] < best)) best = at[i];
      }
      return best;
    };
    return {
      length: buf.length,
      endsWithNl: buf.length > 0 && buf[buf.length - 1] === 10,
      nl: (from) => buf.indexOf(10, from),
      prevNl: (from) => (from < 0 ? -1 : buf.lastIndexOf(10, from)),
      line: (a, b) => buf.toString('utf8', a, b),
      next(pos) {
        for (let hit = first(pos); hit !== -1; hit = first(pos)) {
          if (also.length === 0) return hit;
          const start = hit === 0 ? 0 : buf.lastIndexOf(10, hit - 1) + 1;
          let end = buf.indexOf(10, hit);
          if (end === -1) end = buf.length;
          if (holdsAll(start, end)) return hit;
          pos = end + 1;
        }
        return -1;
      },
    };
  }

  function countNl(src: Src, from: number, to: number): number {
    let n = 0;
    for (let i = src.nl(from); i !== -1 && i < to; i = src.nl(i + 1)) n++;
    return n;
  }

  /**
   * Scans one piece of text. `chunked`: more pieces follow, so the line number after this one and
   * its last lines (context for the next) are worked out; a whole file needs neither, and counting
   * every line of every file that did not match was most of the engine's time.
   */
  function scanLines(src: Src, base: number, st: LineState, spec: SearchSpec, lineRe: RegExp, chunked = false): number {
    const countOnly = spec.mode !== 'content';
    let pos = 0;
    let n = base;
    const lineEnd = (p: number) => {
      const e = src.nl(p);
      return e === -1 ? src.length : e;
    };
    const emit = (line: GrepLine) => {
      if (line.n > st.lastEmitted) {
        st.out.push(line);
        st.lastEmitted = line.n;
      }
    };
    // Context lines owed by a match at the end of the previous chunk; each may match too.
    const afterContext = () => {
      while (st.afterLeft > 0 && pos < src.length && !st.done) {
        const e = lineEnd(pos);
        const line = src.line(pos, e);
        if (lineRe.test(line)) hit(line);
        else {
          emit({ n, text: keep(line, spec), match: false });
          st.afterLeft--;
        }
        pos = e + 1;
        n++;
      }
    };
    const hit = (line: string) => {
      if (!countOnly && st.matched >= spec.maxLines) {
        // One match past the cap: enough to know there are more.
        st.more = true;
        st.done = true;
        return;
      }
      st.matched++;
      if (!countOnly) emit({ n, text: keep(line, spec), match: true });
      st.afterLeft = countOnly ? 0 : spec.after;
      if (spec.mode === 'files_with_matches') st.done = true;
    };
    const beforeContext = (lineStart: number) => {
      if (countOnly || spec.before === 0) return;
      const wanted: GrepLine[] = [];
      let start = lineStart;
      for (let k = 1; k <= spec.before && n - k > st.lastEmitted && n - k >= 1; k++) {
        if (start > 0) {
          const prev = src.prevNl(start - 2) + 1;
          wanted.unshift({ n: n - k, text: keep(src.line(prev, start - 1), spec), match: false });
          start = prev;
        } else {
          const fromTail = st.tail.find((l) => l.n === n - k);
          if (fromTail) wanted.unshift(fromTail);
        }
      }
      for (const l of wanted) emit(l);
    };

    afterContext();
    while (pos < src.length && !st.done) {
      const at = src.next(pos);
      if (at === -1) break;
      const lineStart = src.prevNl(at - 1) + 1;
      n += countNl(src, pos, lineStart);
      pos = lineStart;
      const e = lineEnd(pos);
      const line = src.line(pos, e);
      if (lineRe.test(line)) {
        beforeContext(pos);
        hit(line);
        pos = e + 1;
        n++;
        afterContext();
      } else {
        pos = e + 1;
        n++;
      }
    }
    if (!chunked) return n;
    if (pos < src.length) n += countNl(src, pos, src.length) + (src.endsWithNl ? 0 : 1);
    if (spec.before > 0 && src.length > 0) {
      const tail: GrepLine[] = [];
      let end = src.endsWithNl ? src.length - 1 : src.length;
      for (let k = 0; k < spec.before; k++) {
        const nl = end > 0 ? src.prevNl(end - 1) : -1;
        tail.unshift({ n: n - 1 - k, text: keep(src.line(nl + 1, end), spec), match: false });
        if (nl < 0) break;
        end = nl;
      }
      st.tail = tail;
    }
    return n;
  }

  return { keep, strSrc, bufSrc, countNl, scanLines };
}

export type LineScanner = ReturnType<typeof createLineScanner>;
