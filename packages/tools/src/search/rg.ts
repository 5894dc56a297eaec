// The ripgrep engine: rg runs with an argument array (never a shell), with the flags that make it
// see exactly the files the JS engine sees, and its output is parsed as it streams. When the
// collector is full, rg is stopped.
//
// Binary files: the JS engine skips any file with a NUL byte. rg skips one when it meets the NUL,
// but in content mode it may already have printed matches from before it; its JSON output says so
// (binary_offset), and such files are dropped. Counting reads whole files and leaves binary files
// out by itself, so files_with_matches is asked as a count (-l would stop before a late NUL).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { VCS_EXCLUDES } from './filters.js';
import type { CompiledPattern } from './regex.js';
import { keepText, type Collector, type FileHit, type GrepLine, type GrepQuery } from './results.js';

/** A regular expression rg refused; the caller falls back to the JS engine. */
export class RgRegexError extends Error {}

/** One record of rg output longer than this keeps only its head (a minified file can be one huge line). */
const MAX_PENDING = 4 * 1024 * 1024;

export function rgArgs(q: GrepQuery, p: CompiledPattern): string[] {
  const args = ['--no-config', '--no-messages', '--color', 'never', '--hidden', '--no-require-git', '--no-ignore-global', '--no-ignore-exclude'];
  if (!q.ignoreFiles) args.push('--no-ignore');
  if (q.mode === 'content') {
    args.push('--json');
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

interface RgData {
  text?: string;
  bytes?: string;
}
const textOf = (d: RgData | undefined) => (d?.text !== undefined ? d.text : d?.bytes !== undefined ? Buffer.from(d.bytes, 'base64').toString('utf8') : '');

interface RgMessage {
  type: string;
  data: { path?: RgData; lines?: RgData; line_number?: number | null; binary_offset?: number | null };
}

/** Turns rg --json messages into one FileHit per file, dropping files rg found binary. */
function jsonReader(q: GrepQuery, add: (hit: FileHit) => boolean) {
  let current: FileHit | undefined;
  let matches = 0;
  return (rec: Buffer): boolean => {
    let msg: RgMessage;
    try {
      msg = JSON.parse(rec.toString('utf8')) as RgMessage;
    } catch {
      return true; // a record cut at MAX_PENDING
    }
    const d = msg.data;
    if (msg.type === 'begin') {
      current = { path: join(q.root, relPath(textOf(d.path))), lines: [] };
      matches = 0;
    } else if ((msg.type === 'match' || msg.type === 'context') && current && d.line_number) {
      const text = textOf(d.lines);
      const parts = (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
      for (let i = 0; i < parts.length; i++) {
        const line: GrepLine = { n: d.line_number + i, text: keepText(parts[i]), match: msg.type === 'match' };
        // One file can hold millions of matches; more than the cap are never kept.
        if (matches < q.maxResults) current.lines!.push(line);
        if (line.match) matches++;
      }
    } else if (msg.type === 'end' && current) {
      const hit = current;
      current = undefined;
      if (d.binary_offset === null || d.binary_offset === undefined) return add(hit);
    }
    return true;
  };
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
  const add = (hit: FileHit) => {
    if (stopped) return false;
    if (!collector.add(hit)) stop();
    return !stopped;
  };
  const feed = splitter(q.mode === 'content' ? jsonReader(q, add) : countReader(q, add));
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
    if (code === 2 && !stopped && /regex|pattern|repetition|syntax/i.test(stderr)) throw new RgRegexError(stderr.trim());
    if (code === 2 && !stopped && collector.hits.length === 0 && stderr.trim()) throw new Error(`rg failed: ${stderr.trim()}`);
  } finally {
    q.signal.removeEventListener('abort', stop);
  }
}
