// What a file redirection does: `2>&1` and `< file` only read (when the file may be read), a
// `> file` writes or truncates, a redirection to a disk or a network socket is never a write.
import { isDevice, isSink } from './paths.js';
import type { Finding } from './types.js';
import { render, type Word } from './words.js';

const NETWORK_FILE = /^\/dev\/(tcp|udp)\//;
const TRUNCATING = new Set(['>', '>|', '&>', '>&']);
const INPUT = new Set(['<', '<&', '<&-', '<<<']);

/** What the walker knows about paths at the redirection. */
export interface RedirectScope {
  /** Absolute path for a word, or undefined when it is computed or the cwd is not known. */
  resolve(word: Word): string | undefined;
  exists(absPath: string): boolean;
  isDirectory(absPath: string): boolean;
  /** Why reading this word as a file is not a plain read, or undefined. */
  readProblem(word: Word): string | undefined;
}

export interface RedirectVerdict {
  findings: Finding[];
  /** The `> file` entry to list with the script's commands, for an output redirection to a file. */
  entry?: string;
}

/** Judges one redirection: its operator (`>`, `>>`, `<`, `2>&1`…) and its destination word. */
export function judgeRedirect(op: string, word: Word, scope: RedirectScope): RedirectVerdict {
  if ((op === '>&' || op === '<&') && /^(\d+|-)$/.test(word.value)) return { findings: [] }; // 2>&1, >&-: descriptors, not files
  if (NETWORK_FILE.test(word.value))
    return { findings: [{ effect: 'execute', detail: `${op} ${render(word)} (opens a network connection)` }] };
  if (INPUT.has(op)) {
    if (op === '<<<') return { findings: [] }; // a here-string is data
    const why = scope.readProblem(word);
    return { findings: why ? [{ effect: 'execute', detail: `${op} ${render(word)} (${why})` }] : [] };
  }
  const abs = scope.resolve(word);
  if (abs && isSink(abs)) return { findings: [] };
  const entry = `${op} ${render(word)}`;
  return { findings: [outputFinding(op, entry, abs, scope)], entry };
}

function outputFinding(op: string, entry: string, abs: string | undefined, scope: RedirectScope): Finding {
  const truncating = TRUNCATING.has(op);
  if (!abs) {
    return truncating
      ? { effect: 'destructive', detail: `${entry} (may truncate a file whose path is not known before it runs)` }
      : { effect: 'write', detail: `${entry} (appends to a file whose path is not known before it runs)` };
  }
  if (isDevice(abs))
    return {
      effect: 'destructive',
      detail: `${entry} (writes to a disk)`,
      blocked: `${entry} writes to the block device ${abs}`,
    };
  if (truncating && scope.exists(abs) && !scope.isDirectory(abs))
    return { effect: 'destructive', detail: `${entry} (truncates an existing file)`, paths: [abs] };
  return { effect: 'write', detail: `${entry} (${op.includes('>>') ? 'appends to' : 'writes'} a file)`, paths: [abs] };
}
