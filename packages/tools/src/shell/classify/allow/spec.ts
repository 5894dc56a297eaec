// The allow-list rule: a command is a read only when every word of it is understood — the command
// is listed, each option is one of its harmless options, each file it reads is inside the
// workspace and not a secret. A spec says what a command's words are; `judge` applies it.
import type { Finding, Scope, SimpleCommand } from '../types.js';
import { describe } from '../types.js';
import { hasGlob, type Word } from '../words.js';
import { getopt, has, type OptionTable, type ParsedOption } from './getopt.js';
import type { WalkMode } from './tree.js';

export type Verdict = { ok: true; findings?: Finding[] } | { ok: false; why: string };

export interface Args {
  options: ParsedOption[];
  operands: Word[];
}

/**
 * What a command's operands are: files it reads, plain data (`echo`, `seq`), nothing, or a
 * pattern followed by files (`grep PATTERN FILE...`).
 */
export type Operands = 'paths' | 'data' | 'none' | 'pattern-paths';

export interface ReadSpec {
  /** Absent: no word is an option (echo, true, `:`). */
  options?: OptionTable;
  operands: Operands;
  /** Options end at the first operand (wrappers; tools that do not permute). */
  stopAtOperand?: boolean;
  /** At most this many operands keep it a read (`uniq IN OUT` writes OUT). */
  maxOperands?: number;
  /** Options that give the pattern, so the first operand is a file (`grep -e P FILE`). */
  patternOptions?: readonly string[];
  /** When the command reads directories recursively, how; undefined when it does not. */
  recursive?(args: Args): WalkMode | undefined;
  /** The directory read when no file is named and the command recurses (grep -r, rg). */
  defaultDir?: boolean;
  /** Rules beyond options and operands; may add findings (inner commands of a wrapper). */
  check?(cmd: SimpleCommand, args: Args, scope: Scope): Verdict;
}

export const OK: Verdict = { ok: true };
export const no = (why: string): Verdict => ({ ok: false, why });

/** `.` as a word, for readers that default to the current directory. */
const DOT: Word = { value: '.', pattern: '.', static: true, source: '.' };

export function judge(cmd: SimpleCommand, spec: ReadSpec, scope: Scope): Verdict {
  // Names found at run time (`find | xargs cmd`) are checked wherever they land, data included:
  // one that would split, start with `-` or lead out of the workspace asks.
  for (const w of cmd.args) {
    const why = w.under ? scope.readProblem(w) : undefined;
    if (why) return no(why);
  }
  const parsed = spec.options
    ? getopt(cmd.args, spec.options, spec.stopAtOperand)
    : { ok: true as const, options: [], operands: cmd.args };
  if (!parsed.ok) return no(parsed.why);
  const args: Args = parsed;
  const unsafe = args.options.find((o) => o.info.unsafe);
  if (unsafe) return no(`${unsafe.name} is not read-only`);
  for (const o of args.options) {
    if (o.info.kind !== 'path' || !o.value) continue;
    const why = scope.readProblem(o.value);
    if (why) return no(`${o.name}: ${why}`);
  }
  if (spec.maxOperands !== undefined) {
    if (args.operands.length > spec.maxOperands)
      return no(`more than ${spec.maxOperands} operand${spec.maxOperands === 1 ? '' : 's'} (the next one is written)`);
    // `uniq *.txt` is `uniq a.txt b.txt`: the second file is written.
    const spread = args.operands.find((w) => !w.static || hasGlob(w));
    if (spread) return no(`${spread.source} may become several operands, and the next one is written`);
  }
  const walk = spec.recursive?.(args);
  let files: Word[] = [];
  switch (spec.operands) {
    case 'none':
      if (args.operands.length) return no(`${args.operands[0].source} is not an argument we know for ${cmd.name}`);
      break;
    case 'data':
      break;
    case 'paths':
      files = args.operands;
      break;
    case 'pattern-paths':
      files = spec.patternOptions && has(args, ...spec.patternOptions) ? args.operands : args.operands.slice(1);
      break;
  }
  if (!files.length && walk && spec.defaultDir) files = [DOT];
  // `ls`, `du`, `tree` with no operand read the directory they run in: after `cd /etc` that is outside.
  if (!files.length && spec.operands === 'paths') files = [DOT];
  for (const w of files) {
    const why = scope.readProblem(w, walk);
    if (why) return no(why);
  }
  return spec.check ? spec.check(cmd, args, scope) : OK;
}

/** A verdict's findings, or the command as one plain read. */
export function readFindings(cmd: SimpleCommand, v: Verdict & { ok: true }): Finding[] {
  return v.findings ?? [{ effect: 'read', detail: describe(cmd) }];
}
