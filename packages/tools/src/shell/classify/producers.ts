// Commands whose output is names of files below paths we know, so that `find . -name '*.ts' |
// xargs wc -l` gives wc words that are not options (each name starts with a start path) and not
// paths outside (each is below a start): find with tests and -print/-print0, and `rg --files`,
// `rg -l`, `grep -rl` given their paths (without one, rg prints bare names, which may start with
// `-`). What xargs or the shell does to the names (splitting at blanks) is judged where they are read.
import { FLAGS, NEWER_XY, WITH_PATH, WITH_VALUE } from './allow/find.js';
import { getopt, has } from './allow/getopt.js';
import { cardFor } from './allow/index.js';
import { TEXT } from './allow/text.js';
import type { SimpleCommand } from './types.js';
import type { Word } from './words.js';

/** Names a command prints, one per line (or NUL-terminated), all below `starts`. */
export interface Names {
  producer: string;
  starts: Word[];
  /**
   * The names are bare paths relative to the directory the command runs in (`rg --files`, `git
   * ls-files`): each starts with the name of an entry there, so they are options only if one does.
   */
  bare?: boolean;
  /** Symbolic links among them lead where the reader goes (find -L lists through links). */
  follow: boolean;
  /** Terminated by NUL (-print0), not newline. */
  nul: boolean;
}

const PRINTS = new Set(['-print', '-print0']);

/** What a command prints when it prints only names below paths it is given, else undefined. */
export function namesPrinted(cmd: SimpleCommand): Names | undefined {
  if (cmd.name === 'find') return findNames(cmd);
  if (cmd.name === 'rg' || cmd.name === 'grep') return searchNames(cmd);
  const card = cardFor(cmd.name)?.printsNames?.(cmd);
  if (card) return card;
  // `ls` alone (or -1, -A: never `.` and `..`) prints the names of the entries where it runs.
  if (cmd.name === 'ls' && cmd.args.every((w) => w.static && /^-[1A]+$/.test(w.value)))
    return { producer: 'ls', starts: [DOT], follow: true, nul: false, bare: true };
  return undefined;
}

const DOT: Word = { value: '.', pattern: '.', static: true, source: '.' };

/**
 * Filters whose output is some of their input lines, unchanged: names pass through them (`find |
 * head -20 | xargs wc -l`). Newline-separated names only.
 */
export function passesNames(cmd: SimpleCommand): boolean {
  const words = cmd.args.map((w) => (w.static ? w.value : undefined));
  if (words.some((w) => w === undefined)) return false;
  const args = words as string[];
  const rule = FILTERS[cmd.name];
  if (!rule) return false;
  let operands = 0;
  for (let i = 0; i < args.length; i++) {
    if (rule.valued.test(args[i])) i++;
    else if (cmd.name === 'grep' && !args[i].startsWith('-')) operands++;
    else if (!rule.flags.test(args[i])) return false;
  }
  // grep's one operand is its pattern (none with -e); another would be a file it reads instead.
  return operands <= (args.some((a) => a.startsWith('-e')) ? 0 : 1);
}

const FILTERS: Record<string, { flags: RegExp; valued: RegExp }> = {
  head: { flags: /^(-\d+|-n\d+|--lines=\d+)$/, valued: /^-n$/ },
  tail: { flags: /^(-\d+|-n\+?\d+|--lines=\+?\d+)$/, valued: /^-n$/ },
  sort: {
    flags:
      /^(-[rufVnhdbis]+|--(reverse|unique|ignore-case|version-sort|numeric-sort|human-numeric-sort|stable)|-k\S+|-t\S)$/,
    valued: /^-[kt]$/,
  },
  uniq: { flags: /^-[udi]+$/, valued: /^$/ },
  grep: { flags: /^(-[viEFwxP]+|-e\S+)$/, valued: /^-e$/ },
  cat: { flags: /^-$/, valued: /^$/ },
};

/** `rg --files DIR`, `rg -l P DIR`, `grep -rl P DIR`: file names, each starting with a path given. */
function searchNames(cmd: SimpleCommand): Names | undefined {
  const spec = TEXT[cmd.name];
  const parsed = getopt(cmd.args, spec.options!);
  if (!parsed.ok || parsed.options.some((o) => o.info.unsafe || (o.value && !o.value.static))) return undefined;
  const rg = cmd.name === 'rg';
  const lists = rg
    ? has(parsed, '--files', '-l', '--files-with-matches', '--files-without-match')
    : has(parsed, '-l', '-L', '--files-with-matches', '--files-without-match');
  if (!lists || (!rg && !spec.recursive?.(parsed))) return undefined;
  // rg --null, grep -Z/--null: NUL after each name.
  const nul = rg ? has(parsed, '-0', '--null') : has(parsed, '-Z', '--null');
  const paths = has(parsed, ...spec.patternOptions!) ? parsed.operands : parsed.operands.slice(1);
  // Without a path, rg (and grep -r) print names relative to where they run.
  if (!paths.length) return { producer: cmd.name, starts: [DOT], follow: true, nul, bare: true };
  if (paths.some((w) => !w.static || w.value.startsWith('-'))) return undefined;
  return { producer: cmd.name, starts: paths, follow: true, nul };
}

/** What `find` prints, when it prints only names (no -printf, -ls, -exec, -delete…). */
function findNames(cmd: SimpleCommand): Names | undefined {
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
