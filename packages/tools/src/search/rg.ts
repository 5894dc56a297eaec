// The ripgrep engine: rg runs with an argument array (never a shell), with the flags that make it
// see exactly the files the JS engine sees, and its output is parsed as it streams. When the
// collector is full, rg is stopped.
//
// Binary files: the JS engine skips any file with a NUL byte. rg skips one when it meets the NUL,
// but in content mode it may already have printed matches from before it; it then prints a
// "WARNING: stopped searching binary file after match" line, and such files are dropped. Counting
// reads whole files and leaves binary files out by itself, so files_with_matches is asked as a
// count (-l would stop before a late NUL). Long lines are cut by rg itself (--max-columns with a
// preview longer than what is kept), so a minified file does not pour megabytes through the pipe.
//
// rg searches `.`, never a file named on its command line (a single file goes to the JS engine):
// an explicit path is opened whatever it is, a named pipe included, while rg's walk searches only
// regular files and follows no symlinks. It has no filter for hard links: a hit is marked with its
// inode when its file has several names, as the JS engine marks it, for the caller to judge.
import { spawn } from 'node:child_process';
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { VCS_EXCLUDES } from '../walk/filters.js';
import type { CompiledPattern } from './regex.js';
import { watchForStall } from './rg-stall.js';
import { KEEP_CHARS, keepText, type Collector, type FileHit, type GrepLine, type GrepQuery } from './results.js';

/** A regular expression rg refused; the caller falls back to the JS engine. */
export class RgRegexError extends Error {}

/** rg was stopped because it would wait forever on this ignore file; the caller falls back to the JS engine. */
export class RgBlockedError extends Error {
  constructor(readonly path: string) {
    super(`rg would wait forever on ${path}, which is not a regular file`);
  }
}

/** The hit marked with its inode when its file has other names; undefined when it is no longer a regular file. */
function marked(hit: FileHit): FileHit | undefined {
  const st = lstatSync(hit.path, { throwIfNoEntry: false });
  if (!st?.isFile()) return undefined;
  return st.nlink > 1 ? { ...hit, link: { dev: st.dev, ino: st.ino, nlink: st.nlink } } : hit;
}

/** One record of rg output longer than this keeps only its head (a minified file can be one huge line). */
const MAX_PENDING = 4 * 1024 * 1024;

export function rgArgs(q: GrepQuery, p: CompiledPattern): string[] {
  const args = [
    '--no-config',
    '--no-messages',
    '--color',
    'never',
    '--hidden',
    '--no-require-git',
    '--no-ignore-global',
    '--no-ignore-exclude',
  ];
  if (!q.ignoreFiles) args.push('--no-ignore');
  if (q.mode === 'content') {
    // Four columns per kept character, whether rg counts columns in bytes or characters.
    args.push(
      '--line-number',
      '--with-filename',
      '--no-heading',
      '--null',
      '--max-columns',
      String(KEEP_CHARS * 4),
      '--max-columns-preview',
    );
    if (q.before) args.push('--before-context', String(q.before));
    if (q.after) args.push('--after-context', String(q.after));
  } else {
    args.push('--count', '--with-filename', '--null');
  }
  if (q.multiline) args.push('--multiline');
  for (const g of [...q.globs, ...VCS_EXCLUDES]) args.push('--glob', g);
  if (q.typeGlobs.length) {
    for (const g of q.typeGlobs) args.push('--type-add', `tbsel:${g}`);
    args.push('--type', 'tbsel');
  }
  args.push('--regexp', p.rust!, '--', '.');
  return args;
}

/** Splits a byte stream into newline-terminated records, capping how much of one is kept. */
function splitter(onRecord: (rec: Buffer) => boolean) {
  let parts: Buffer[] = [];
  let size = 0;
  return (chunk: Buffer): boolean => {
    let start = 0;
    for (let i = chunk.indexOf(10, start); i !== -1; i = chunk.indexOf(10, start)) {
      if (size < MAX_PENDING) parts.push(chunk.subarray(start, i));
      const rec = parts.length === 1 ? parts[0] : Buffer.concat(parts);
      parts = [];
      size = 0;
      start = i + 1;
      if (!onRecord(rec)) return false;
    }
    if (start < chunk.length && size < MAX_PENDING) {
      const rest = chunk.subarray(start, start + (MAX_PENDING - size));
      parts.push(Buffer.from(rest));
      size += rest.length;
    }
    return true;
  };
}

const relPath = (raw: string) => (raw.startsWith('./') ? raw.slice(2) : raw);

const BINARY_WARNING =
  /^(.*): WARNING: stopped searching binary file after match \(found .* byte around offset \d+\)$/s;

/** `path\0N:text` (match) and `path\0N-text` (context) records, one FileHit per file. */
function contentReader(q: GrepQuery, add: (hit: FileHit) => boolean) {
  let current: FileHit | undefined;
  let matches = 0;
  const flush = () => {
    const hit = current;
    current = undefined;
    return hit ? add(hit) : true;
  };
  const reader = (rec: Buffer): boolean => {
    const nul = rec.indexOf(0);
    if (nul === -1) {
      // "--" between context groups, or rg giving up on a binary file it already printed lines of.
      const warning = BINARY_WARNING.exec(rec.toString('utf8'));
      if (warning && current?.path === join(q.root, relPath(warning[1]))) current = undefined;
      return true;
    }
    const path = join(q.root, relPath(rec.subarray(0, nul).toString('utf8')));
    const rest = rec.subarray(nul + 1).toString('utf8');
    const m = /^(\d+)([:-])/.exec(rest);
    if (!m) return true;
    if (current?.path !== path) {
      if (!flush()) return false;
      current = { path, lines: [] };
      matches = 0;
    }
    const line: GrepLine = { n: Number(m[1]), text: keepText(rest.slice(m[0].length)), match: m[2] === ':' };
    // One file can hold millions of matches; past the cap nothing more is needed from rg.
    if (line.match && matches >= q.maxResults) {
      if (current) current.more = true;
      flush();
      return false;
    }
    current.lines!.push(line);
    if (line.match) matches++;
    return true;
  };
  return Object.assign(reader, { flush });
}

/** `path\0count` records of --count --null. */
function countReader(q: GrepQuery, add: (hit: FileHit) => boolean) {
  return (rec: Buffer): boolean => {
    const nul = rec.indexOf(0);
    if (nul === -1) return true;
    const path = join(q.root, relPath(rec.subarray(0, nul).toString('utf8')));
    const count = Number(rec.subarray(nul + 1).toString('utf8'));
    return add(q.mode === 'count' ? { path, count } : { path });
  };
}

export async function runRg(rgPath: string, q: GrepQuery, p: CompiledPattern, collector: Collector): Promise<void> {
  const child = spawn(rgPath, rgArgs(q, p), { cwd: q.root, stdio: ['ignore', 'pipe', 'pipe'] });
  let stopped = false;
  const stop = () => {
    if (!stopped) {
      stopped = true;
      child.kill('SIGTERM');
    }
  };
  q.signal.addEventListener('abort', stop, { once: true });
  const add = (found: FileHit) => {
    if (stopped) return false;
    const hit = marked(found);
    if (!hit) return true;
    if (!collector.add(hit)) stop();
    return !stopped;
  };
  const content = q.mode === 'content' ? contentReader(q, add) : undefined;
  const feed = splitter(content ?? countReader(q, add));
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    if (!stopped && !feed(chunk)) stop();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < 4096) stderr += chunk.toString('utf8');
  });
  let blockedBy: string | undefined;
  const watch = watchForStall(q, child.pid, (found) => {
    if (stopped) return;
    blockedBy = found;
    stop();
  });
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (c) => resolve(c));
    });
    if (blockedBy !== undefined) throw new RgBlockedError(blockedBy);
    if (!stopped) content?.flush();
    if (code === 2 && !stopped && /regex|pattern|repetition|syntax/i.test(stderr))
      throw new RgRegexError(stderr.trim());
    if (code === 2 && !stopped && collector.hits.length === 0 && stderr.trim())
      throw new Error(`rg failed: ${stderr.trim()}`);
  } finally {
    watch.stop();
    q.signal.removeEventListener('abort', stop);
  }
}
