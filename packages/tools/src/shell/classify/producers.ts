// Commands whose output is names of files below paths we know, so that `find . -name '*.ts' |
// xargs wc -l` gives wc words that are not options (each name starts with a start path) and not
// paths outside (each is below a start). Only find with tests and -print/-print0 is such a
// producer here; what xargs does to the names (splitting at blanks) is judged where they are read.
import { FLAGS, NEWER_XY, WITH_PATH, WITH_VALUE } from './allow/find.js';
import type { SimpleCommand } from './types.js';
import type { Word } from './words.js';

/** Names a command prints, one per line (or NUL-terminated), all below `starts`. */
export interface Names {
  producer: string;
  starts: Word[];
  /** Symbolic links among them lead where the reader goes (find -L lists through links). */
  follow: boolean;
  /** Terminated by NUL (-print0), not newline. */
  nul: boolean;
}

const PRINTS = new Set(['-print', '-print0']);

/** What `find` prints, when it prints only names (no -printf, -ls, -exec, -delete…). */
export function namesPrinted(cmd: SimpleCommand): Names | undefined {
  if (cmd.name !== 'find') return undefined;
  const args = cmd.args;
  let i = 0;
  let follow = false;
  for (; i < args.length && /^-[HLP]$/.test(args[i].value); i++) follow ||= args[i].value === '-L';
  const starts: Word[] = [];
  for (; i < args.length && args[i].static && !/^[-(!),]/.test(args[i].value); i++) starts.push(args[i]);
  if (!starts.length) starts.push({ value: '.', pattern: '.', static: true, source: '.' });
  const printed = new Set<string>();
  for (; i < args.length; i++) {
    const w = args[i];
    // -printf prints what it is told; -files0-from reads the start paths from a file.
    if (!w.static || w.value === '-files0-from' || w.value === '-printf') return undefined;
    if (PRINTS.has(w.value)) printed.add(w.value);
    else if (w.value === '-follow') follow = true;
    else if (WITH_VALUE.has(w.value) || WITH_PATH.has(w.value) || NEWER_XY.test(w.value)) {
      if (!args[++i]?.static) return undefined;
    } else if (!FLAGS.has(w.value) || w.value === '-ls') return undefined;
  }
  return { producer: 'find', starts, follow, nul: printed.has('-print0') && !printed.has('-print') };
}
