// The ripgrep engine: rg runs with an argument array (never a shell), with the flags that make it
// see exactly the files the JS engine sees, and its --null output is parsed as it streams. When
// the collector is full, rg is stopped.
import { spawn } from 'node:child_process';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { VCS_EXCLUDES } from './filters.js';
import type { CompiledPattern } from './regex.js';
import { keepText, type Collector, type FileHit, type GrepLine, type GrepQuery } from './results.js';

/** A regular expression rg refused; the caller falls back to the JS engine. */
export class RgRegexError extends Error {}

/** Files at most this big were read whole by rg, so its own binary check saw all of them. */
const RG_FIRST_BUFFER = 32 * 1024;
/** A line of rg output longer than this keeps only its head (a minified file can be one huge line). */
const MAX_PENDING = 1024 * 1024;

export function rgArgs(q: GrepQuery, p: CompiledPattern): string[] {
  const args = ['--no-config', '--no-messages', '--color', 'never', '--hidden', '--no-require-git', '--no-ignore-global', '--no-ignore-exclude'];
  if (!q.ignoreFiles) args.push('--no-ignore');
  if (q.mode === 'content') {
    args.push('--line-number', '--with-filename', '--no-heading', '--null');
    if (q.before) args.push('--before-context', String(q.before));
    if (q.after) args.push('--after-context', String(q.after));
  } else if (q.mode === 'files_with_matches') {
    args.push('--files-with-matches', '--null');
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

/** Splits a byte stream on a separator, capping how much of one record is kept. */
function splitter(sep: number, onRecord: (rec: Buffer) => boolean | void) {
  let parts: Buffer[] = [];
  let size = 0;
  return (chunk: Buffer): boolean => {
    let start = 0;
    for (let i = chunk.indexOf(sep, start); i !== -1; i = chunk.indexOf(sep, start)) {
      if (size < MAX_PENDING) parts.push(chunk.subarray(start, i));
      const rec = parts.length === 1 ? parts[0] : Buffer.concat(parts);
      parts = [];
      size = 0;
      start = i + 1;
      if (onRecord(rec) === false) return false;
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

export async function runRg(rgPath: string, q: GrepQuery, p: CompiledPattern, collector: Collector): Promise<void> {
  const child = spawn(rgPath, rgArgs(q, p), { cwd: q.root, stdio: ['ignore', 'pipe', 'pipe'] });
  let stopped = false;
  const stop = () => {
    if (!stopped) {
      stopped = true;
      child.kill('SIGTERM');
    }
  };
  const onAbort = () => stop();
  q.signal.addEventListener('abort', onAbort, { once: true });

  let current: FileHit | undefined;
  let currentMatches = 0;
  const flush = () => {
    if (current && !stopped && !collector.add(current)) stop();
    current = undefined;
    currentMatches = 0;
  };
  const onLine = (rec: Buffer) => {
    if (stopped) return false;
    const nul = rec.indexOf(0);
    if (nul === -1) return true; // a "--" group separator
    const path = join(q.root, relPath(rec.subarray(0, nul).toString('utf8')));
    const rest = rec.subarray(nul + 1).toString('utf8');
    if (q.mode === 'count') {
      if (!collector.add({ path, count: Number(rest) })) stop();
      return !stopped;
    }
    const m = /^(\d+)([:-])/.exec(rest);
    if (!m) return true;
    if (current?.path !== path) {
      flush();
      current = { path, lines: [] };
    }
    const line: GrepLine = { n: Number(m[1]), text: keepText(rest.slice(m[0].length)), match: m[2] === ':' };
    // One file can hold millions of matches; more than the cap are never kept.
    if (currentMatches < q.maxResults) current!.lines!.push(line);
    if (line.match) currentMatches++;
    return !stopped;
  };
  const feed = q.mode === 'files_with_matches'
    ? splitter(0, (rec) => {
        if (rec.length && !collector.add({ path: join(q.root, relPath(rec.toString('utf8'))) })) stop();
        return !stopped;
      })
    : splitter(10, onLine);

  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    if (!stopped && !feed(chunk)) stop();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < 4096) stderr += chunk.toString('utf8');
  });
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (c) => resolve(c));
    });
    flush();
    if (code === 2 && !stopped && /regex|pattern|repetition|syntax/i.test(stderr)) throw new RgRegexError(stderr.trim());
    if (code === 2 && !stopped && collector.hits.length === 0 && stderr.trim()) throw new Error(`rg failed: ${stderr.trim()}`);
  } finally {
    q.signal.removeEventListener('abort', onAbort);
  }
}

/**
 * rg stops at the first NUL it reads but may already have printed matches from before it in a big
 * file; the JS engine skips such a file entirely. Dropping those hits makes the engines agree.
 */
export async function dropBinaryHits(hits: FileHit[]): Promise<FileHit[]> {
  const keep = await Promise.all(hits.map((h) => hasNoNul(h.path)));
  return hits.filter((_, i) => keep[i]);
}

async function hasNoNul(path: string): Promise<boolean> {
  let fh;
  try {
    fh = await open(path, 'r');
    const { size } = await fh.stat();
    if (size <= RG_FIRST_BUFFER) return true;
    const buf = Buffer.allocUnsafe(1024 * 1024);
    const { bytesRead: head } = await fh.read(buf, 0, 2, 0);
    // UTF-16 is decoded by both engines; its zero bytes are not binary.
    if (head === 2 && ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff))) return true;
    for (let pos = 0; pos < size; ) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) break;
      if (buf.subarray(0, bytesRead).indexOf(0) !== -1) return false;
      pos += bytesRead;
    }
    return true;
  } catch {
    return true;
  } finally {
    await fh?.close();
  }
}
