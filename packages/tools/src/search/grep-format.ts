// How grep's hits read: the content blocks (a file's path, then its lines), grep -n's lines, file
// lists and counts, and the footer that says what was found, what stopped and what is not shown.
import type { Workspace } from '@toolbelt/core';
import type { FileHit, OutputMode } from './results.js';

const SHOWN_CHARS = 500;

/** What the footer needs of the call's input. */
export interface FooterArgs {
  multiline?: boolean | undefined;
}

export interface Left {
  capped: boolean;
  /** Protected files not shown. */
  dropped: number;
  /** Hard-linked files not shown (another name may be outside). */
  withheld: number;
}

function clip(text: string): string {
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}… [line cut]` : text;
}

/** grep -n's form: `file:12:match` and `file-11-context`, `--` between groups that do not touch. */
export function formatLines(ws: Workspace, hits: FileHit[], context: boolean): { text: string; lines: number } {
  const out: string[] = [];
  let matched = 0;
  for (const h of hits) {
    const name = ws.display(h.path);
    let prev = 0;
    for (const l of h.lines ?? []) {
      if (context && out.length && (prev === 0 || l.n > prev + 1)) out.push('--');
      out.push(`${name}${l.match ? ':' : '-'}${l.n}${l.match ? ':' : '-'}${clip(l.text)}`);
      if (l.match) matched++;
      prev = l.n;
    }
  }
  return { text: out.join('\n'), lines: matched };
}

export function formatHits(
  ws: Workspace,
  mode: OutputMode,
  hits: FileHit[],
  context: boolean,
): { text: string; lines: number } {
  if (mode === 'files_with_matches') return { text: hits.map((h) => ws.display(h.path)).join('\n'), lines: 0 };
  if (mode === 'count') {
    const total = hits.reduce((n, h) => n + (h.count ?? 0), 0);
    return { text: hits.map((h) => `${ws.display(h.path)}:${h.count}`).join('\n'), lines: total };
  }
  const blocks: string[] = [];
  let matched = 0;
  for (const h of hits) {
    const out = [ws.display(h.path)];
    let prev = 0;
    for (const l of h.lines ?? []) {
      // A gap only means something when context lines are shown; without them every line is a match.
      if (context && prev && l.n > prev + 1) out.push('--');
      out.push(`${l.n}${l.match ? ':' : '-'}${clip(l.text)}`);
      if (l.match) matched++;
      prev = l.n;
    }
    blocks.push(out.join('\n'));
  }
  return { text: blocks.join('\n\n'), lines: matched };
}

export function linkNote(withheld: number): string {
  const files = withheld === 1 ? '1 hard-linked file matched but is' : `${withheld} hard-linked files matched but are`;
  return `${files} not shown: another name of ${withheld === 1 ? 'it' : 'theirs'} may be outside the workspace (copies and package store files are shown).`;
}

export function footer(
  args: FooterArgs,
  mode: OutputMode,
  left: Left,
  shown: { lines: number },
  files: number,
  max: number,
): string {
  const notes: string[] = [];
  const fileWord = `${files} file${files === 1 ? '' : 's'}`;
  // Capped content and file lists hold max_results items: the summary would repeat that number.
  const lineWord = `${shown.lines} matching line${shown.lines === 1 ? '' : 's'} in ${fileWord}.`;
  if (mode === 'count') notes.push(lineWord);
  else if (!left.capped) notes.push(mode === 'content' ? lineWord : `${fileWord}.`);
  if (left.capped) notes.push(`Stopped at max_results (${max}); narrow with path, glob or type, or raise max_results.`);
  if (left.dropped)
    notes.push(`${left.dropped} protected file${left.dropped === 1 ? '' : 's'} (.env, keys, credentials) not shown.`);
  if (left.withheld) notes.push(linkNote(left.withheld));
  if (args.multiline && mode === 'count') notes.push('(In multiline mode, count is the number of matches.)');
  return notes.join(' ');
}
