// Unified diffs for previews and displays, bounded in time, size and memory so a huge rewrite cannot
// stall an approval prompt or exhaust memory: only the changed region (the text between the common
// start and the common end, plus context) goes to the diff algorithm, and a region too large for it
// is summed up in one line instead of diffed.
import { createHash } from 'node:crypto';
import { formatPatch, structuredPatch, type StructuredPatch } from 'diff';
import type { Preview } from '@toolbelt/core';

const MAX_DIFF_CHARS = 40_000;
/** Characters of changed region (old + new) the diff algorithm is given; larger ones are summed up. */
export const MAX_DIFF_INPUT = 1024 * 1024;
const CONTEXT = 3;
const SUMMARY = /^\(too large to show line by line: (\d+) lines? removed, (\d+) added\)$/m;

/** A unified diff of old -> new for `shown` (the path as the model sees it). */
export function unifiedDiff(
  shown: string,
  before: string,
  after: string,
  opts: { created?: boolean; deleted?: boolean } = {},
): string {
  const a = opts.created ? '/dev/null' : `a/${shown}`;
  const b = opts.deleted ? '/dev/null' : `b/${shown}`;
  if (before === after) return `--- ${a}\n+++ ${b}\n`;
  const r = changedRegion(before, after);
  const oldPart = before.slice(r.start, r.oldEnd);
  const newPart = after.slice(r.start, r.newEnd);
  const at = r.linesBefore + 1;
  if (oldPart.length + newPart.length > MAX_DIFF_INPUT) return summary(a, b, at, oldPart, newPart);
  const patch = structuredPatch(a, b, oldPart, newPart, undefined, undefined, { context: CONTEXT, timeout: 2000 });
  if (patch === undefined) return summary(a, b, at, oldPart, newPart);
  const body = formatPatch(shifted(patch, r.linesBefore), {
    includeIndex: false,
    includeUnderline: false,
    includeFileHeaders: true,
  });
  if (body.length <= MAX_DIFF_CHARS) return body;
  return `${body.slice(0, MAX_DIFF_CHARS)}\n... (diff cut at ${MAX_DIFF_CHARS} of ${body.length} characters)\n`;
}

function summary(a: string, b: string, at: number, oldPart: string, newPart: string): string {
  const removed = lineCount(oldPart);
  const added = lineCount(newPart);
  return `--- ${a}\n+++ ${b}\n@@ -${at},${removed} +${at},${added} @@\n(too large to show line by line: ${removed} lines removed, ${added} added)\n`;
}

/** The hunks of a patch of a region that starts after `lines` unchanged lines, numbered in the file. */
function shifted(patch: StructuredPatch, lines: number): StructuredPatch {
  return {
    ...patch,
    hunks: patch.hunks.map((h) => ({ ...h, oldStart: h.oldStart + lines, newStart: h.newStart + lines })),
  };
}

interface Region {
  /** Where the region starts in both texts: a line start, CONTEXT lines before the first change. */
  start: number;
  oldEnd: number;
  newEnd: number;
  /** Lines before `start`. */
  linesBefore: number;
}

/** The lines that differ, with CONTEXT lines around them: everything outside is the same in both. */
function changedRegion(before: string, after: string): Region {
  const shortest = Math.min(before.length, after.length);
  let p = 0;
  while (p < shortest && before.charCodeAt(p) === after.charCodeAt(p)) p++;
  let s = 0;
  while (s < shortest - p && before.charCodeAt(before.length - 1 - s) === after.charCodeAt(after.length - 1 - s)) s++;
  let start = p === 0 ? 0 : before.lastIndexOf('\n', p - 1) + 1;
  for (let k = 0; k < CONTEXT && start > 0; k++) start = before.lastIndexOf('\n', start - 2) + 1;
  // The first newline inside the common end closes the last changed line, in both texts alike.
  let oldEnd = endOfLine(before, before.length - s);
  for (let k = 0; k < CONTEXT && oldEnd < before.length; k++) oldEnd = endOfLine(before, oldEnd);
  const newEnd = after.length - (before.length - oldEnd);
  return { start, oldEnd, newEnd, linesBefore: countNewlines(before, start) };
}

function endOfLine(text: string, from: number): number {
  const nl = text.indexOf('\n', from);
  return nl === -1 ? text.length : nl + 1;
}

function countNewlines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

export function diffPreview(path: string, diff: string): Preview {
  return { kind: 'diff', path, diff };
}

export function lineCount(text: string): number {
  if (text === '') return 0;
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n : n + 1;
}

/** +added -removed line counts of a unified diff (of its summary line, when it has one). */
export function diffStat(diff: string): { added: number; removed: number } {
  const sum = SUMMARY.exec(diff);
  if (sum) return { added: Number(sum[2]), removed: Number(sum[1]) };
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++') || line.startsWith('---')) continue;
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}

export function digest(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
