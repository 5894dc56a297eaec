// What a grep engine produces, and the collector both engines feed: it counts, caps (so a huge
// result never piles up in memory), reports progress, and hands back the hits sorted by path.
import type { FileHit, OutputMode } from './js/core.js';

export type { FileHit, GrepLine, OutputMode } from './js/core.js';

/** Characters of each line an engine keeps (the display cuts further). */
export const KEEP_CHARS = 1000;

export interface GrepQuery {
  /** Real absolute directory (or file) to search. */
  root: string;
  isFile: boolean;
  mode: OutputMode;
  before: number;
  after: number;
  /** Multiline requested. */
  multiline: boolean;
  globs: string[];
  typeGlobs: string[];
  ignoreFiles: boolean;
  /** content: matched lines; files_with_matches and count: files. */
  maxResults: number;
  signal: AbortSignal;
}

export interface CollectorOptions {
  /** Each file's hits as they are accepted (for progress). */
  onHit?: (hit: FileHit, c: Collector) => void;
  /** Files to set aside uncounted (protected files), for the caller to decide on later. */
  hold?: (path: string) => boolean;
  /** For a hit in a file with other names: true when it may be shown now; the rest wait in `linked`. */
  admitLinked?: (hit: FileHit) => boolean;
}

export class Collector {
  readonly hits: FileHit[] = [];
  /** Hits set aside by `hold`; they never count towards the cap. */
  readonly held: FileHit[] = [];
  /** Hits in hard-linked files not yet proven readable (workspace/links.ts); uncounted. */
  readonly linked: FileHit[] = [];
  matchedLines = 0;
  capped = false;

  constructor(
    readonly mode: OutputMode,
    readonly max: number,
    private readonly opts: CollectorOptions = {},
  ) {}

  /** Adds one file's results; false once the cap is reached (the engine should stop). */
  add(hit: FileHit): boolean {
    if (this.capped) return false;
    if (hit.link) {
      if (!this.opts.admitLinked?.(hit)) {
        this.linked.push(hit);
        return true;
      }
      const { link: _link, ...plain } = hit;
      hit = plain;
    }
    if (this.opts.hold?.(hit.path)) {
      this.held.push(hit);
      return true;
    }
    if (this.mode === 'content' && hit.lines) {
      const matches = hit.lines.reduce((n, l) => n + (l.match ? 1 : 0), 0);
      const room = this.max - this.matchedLines;
      if (matches > room) {
        let seen = 0;
        const cut = hit.lines.findIndex((l) => l.match && ++seen > room);
        hit = { ...hit, lines: hit.lines.slice(0, cut) };
        this.capped = true;
        // The cap fell between files: this file's matches are all past it, so it is not listed
        // at all (an empty header would count as a file with matches).
        if (room === 0) return false;
      }
      this.matchedLines += Math.min(matches, room);
    } else if (this.mode === 'count') {
      this.matchedLines += hit.count ?? 0;
    }
    if (hit.more) {
      const { more: _more, ...kept } = hit;
      hit = kept;
      this.capped = true;
    }
    this.hits.push(hit);
    if (this.mode !== 'content' && this.hits.length >= this.max) this.capped = true;
    this.opts.onHit?.(hit, this);
    return !this.capped;
  }

  sorted(): FileHit[] {
    return [...this.hits].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
}

/** Strips a trailing CR and keeps the first KEEP_CHARS characters: the same cut in both engines. */
export function keepText(text: string): string {
  const t = text.endsWith('\r') ? text.slice(0, -1) : text;
  return t.length > KEEP_CHARS ? t.slice(0, KEEP_CHARS) : t;
}
