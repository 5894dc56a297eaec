// Reads a command's arguments the way GNU getopt_long does — short clusters (`-rn`, `-n5`), long
// options given by any unambiguous prefix (`--in-pl` is `--in-place`), `--`, options after
// operands — against a spec that names every option the tool has. Anything the spec does not
// name is reported, never guessed: an unknown option means the command is not understood.
import type { Word } from '../words.js';

/** How an option's value is used: not taken, plain data, or a file the command reads. */
export type ValueKind = 'none' | 'value' | 'optional' | 'path';

export interface OptionInfo {
  kind: ValueKind;
  /** Known to the tool but not harmless (writes, runs a program): its presence stops a read. */
  unsafe?: boolean;
}

export interface OptionTable {
  short: Map<string, OptionInfo>;
  long: Map<string, OptionInfo>;
  /**
   * The table lists every long option of the tool, so prefixes may be expanded as getopt does.
   * Without it only exact names are accepted: an abbreviation could stand for an option we do not
   * know.
   */
  complete: boolean;
  /** `-5` style numbers (head, tail, grep context) are options. */
  numeric: boolean;
}

export interface ParsedOption {
  /** `-n` or `--lines`: the full name after prefix expansion. */
  name: string;
  value?: Word;
  info: OptionInfo;
}

export type Parsed = { ok: true; options: ParsedOption[]; operands: Word[] } | { ok: false; why: string };

/**
 * Compiles a compact spec. Short: letters, each followed by `:` (takes a value), `@` (takes a file
 * path) or `!` (known but unsafe; `!:` unsafe with a value). Long: space-separated names, each
 * ending in `=` (value), `=@` (file path), `?` (optional value, only with `=`), and starting with
 * `!` when unsafe.
 */
export function table(short: string, long: string, opts: { complete?: boolean; numeric?: boolean } = {}): OptionTable {
  const s = new Map<string, OptionInfo>();
  for (let i = 0; i < short.length; i++) {
    const c = short[i];
    let unsafe = false;
    let kind: ValueKind = 'none';
    while (i + 1 < short.length && '!:@?'.includes(short[i + 1])) {
      const m = short[++i];
      if (m === '!') unsafe = true;
      else kind = m === ':' ? 'value' : m === '@' ? 'path' : 'optional';
    }
    s.set(c, { kind, ...(unsafe ? { unsafe } : {}) });
  }
  const l = new Map<string, OptionInfo>();
  for (let spec of long.split(/\s+/).filter(Boolean)) {
    const unsafe = spec.startsWith('!');
    if (unsafe) spec = spec.slice(1);
    let kind: ValueKind = 'none';
    if (spec.endsWith('=@')) [spec, kind] = [spec.slice(0, -2), 'path'];
    else if (spec.endsWith('=')) [spec, kind] = [spec.slice(0, -1), 'value'];
    else if (spec.endsWith('?')) [spec, kind] = [spec.slice(0, -1), 'optional'];
    l.set(spec, { kind, ...(unsafe ? { unsafe } : {}) });
  }
  return { short: s, long: l, complete: opts.complete ?? false, numeric: opts.numeric ?? false };
}

/** The long option a name stands for, as getopt_long would pick it. */
export function expandLong(t: OptionTable, name: string): { name: string; info: OptionInfo } | { why: string } {
  const exact = t.long.get(name);
  if (exact) return { name, info: exact };
  if (!t.complete) return { why: `--${name} is not an option we know for this command` };
  const matches = [...t.long.keys()].filter((k) => k.startsWith(name));
  if (matches.length === 1) return { name: matches[0], info: t.long.get(matches[0])! };
  if (matches.length > 1)
    return {
      why: `--${name} is ambiguous (${matches
        .slice(0, 4)
        .map((m) => `--${m}`)
        .join(', ')})`,
    };
  return { why: `--${name} is not an option of this command` };
}

const part = (w: Word, value: string): Word => ({ value, pattern: value, static: w.static, source: w.source });

/**
 * Parses every argument. `stopAtOperand` ends option parsing at the first operand (wrappers, and
 * tools that do not permute). Computed words (`$X`) that could be options are not understood.
 */
export function getopt(args: Word[], t: OptionTable, stopAtOperand = false): Parsed {
  const options: ParsedOption[] = [];
  const operands: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    const a = w.value;
    if (!w.static && (a.startsWith('\u0000') || a.startsWith('-'))) {
      // `$X` may expand to `--output=f`: unless options have ended, it could be any option.
      return { ok: false, why: `${w.source} is computed and could be an option` };
    }
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const found = expandLong(t, eq >= 0 ? a.slice(2, eq) : a.slice(2));
      if ('why' in found) return { ok: false, why: found.why };
      const opt: ParsedOption = { name: `--${found.name}`, info: found.info };
      if (eq >= 0) {
        if (found.info.kind === 'none') return { ok: false, why: `--${found.name} takes no value` };
        opt.value = part(w, a.slice(eq + 1));
      } else if (found.info.kind === 'value' || found.info.kind === 'path') {
        if (i + 1 >= args.length) return { ok: false, why: `--${found.name} needs a value` };
        opt.value = args[++i];
      }
      options.push(opt);
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      if (t.numeric && /^-\d+$/.test(a)) {
        options.push({ name: a, info: { kind: 'none' } });
        continue;
      }
      for (let j = 1; j < a.length; j++) {
        const c = a[j];
        const info = t.short.get(c);
        if (!info) return { ok: false, why: `-${c} is not an option we know for this command` };
        const opt: ParsedOption = { name: `-${c}`, info };
        if (info.kind === 'value' || info.kind === 'path') {
          if (j + 1 < a.length) opt.value = part(w, a.slice(j + 1));
          else if (i + 1 < args.length) opt.value = args[++i];
          else return { ok: false, why: `-${c} needs a value` };
          options.push(opt);
          break;
        }
        if (info.kind === 'optional' && j + 1 < a.length) {
          opt.value = part(w, a.slice(j + 1));
          options.push(opt);
          break;
        }
        options.push(opt);
      }
      continue;
    }
    operands.push(w);
    if (stopAtOperand) {
      operands.push(...args.slice(i + 1));
      break;
    }
  }
  return { ok: true, options, operands };
}

export function has(p: { options: ParsedOption[] }, ...names: string[]): boolean {
  return p.options.some((o) => names.includes(o.name));
}

export function valuesOf(p: { options: ParsedOption[] }, ...names: string[]): Word[] {
  return p.options.filter((o) => names.includes(o.name) && o.value).map((o) => o.value!);
}

/**
 * The arguments with every long option spelled out (`--in-pl` -> `--in-place`), for handlers that
 * match full names; undefined when some option is unknown or ambiguous.
 */
export function canonical(args: Word[], t: OptionTable): Word[] | undefined {
  const out: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    if (w.value === '--') return [...out, ...args.slice(i)];
    if (!w.static || !w.value.startsWith('--')) {
      out.push(w);
      continue;
    }
    const eq = w.value.indexOf('=');
    const found = expandLong(t, eq >= 0 ? w.value.slice(2, eq) : w.value.slice(2));
    if ('why' in found) return undefined;
    const value = `--${found.name}${eq >= 0 ? w.value.slice(eq) : ''}`;
    out.push({ ...w, value, pattern: value });
  }
  return out;
}
