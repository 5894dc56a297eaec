// Unified diffs for previews and displays, bounded in time and size so a huge rewrite cannot stall
// an approval prompt.
import { createHash } from 'node:crypto';
import { createTwoFilesPatch } from 'diff';
import type { Preview } from '@toolbelt/core';

const MAX_DIFF_CHARS = 40_000;

/** A unified diff of old -> new for `shown` (the path as the model sees it). */
export function unifiedDiff(shown: string, before: string, after: string, opts: { created?: boolean; deleted?: boolean } = {}): string {
  const a = opts.created ? '/dev/null' : `a/${shown}`;
  const b = opts.deleted ? '/dev/null' : `b/${shown}`;
  const patch = createTwoFilesPatch(a, b, before, after, undefined, undefined, {
    context: 3,
    timeout: 2000,
    headerOptions: { includeIndex: false, includeUnderline: false, includeFileHeaders: true },
  });
  if (patch === undefined) {
    return `--- ${a}\n+++ ${b}\n(diff too large to compute: ${lineCount(before)} lines -> ${lineCount(after)} lines)\n`;
  }
  const body = patch;
  if (body.length <= MAX_DIFF_CHARS) return body;
  return `${body.slice(0, MAX_DIFF_CHARS)}\n... (diff cut at ${MAX_DIFF_CHARS} of ${body.length} characters)\n`;
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

/** +added -removed line counts of a unified diff. */
export function diffStat(diff: string): { added: number; removed: number } {
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
