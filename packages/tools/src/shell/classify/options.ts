// getopt-style reading of a command's arguments: short flags (bundled `-rf`, `-ofile`), long
// flags (`--output=x`, `--output x`), `--`, and the positional words left over.
import type { Word } from './words.js';

export interface OptionSpec {
  /** Short letters that take a value (`o` for `sort -o FILE`). */
  shortArgs?: string;
  /** Long names that take a value when not given with `=`. */
  longArgs?: readonly string[];
  /** Stop at the first positional word (for wrappers: the rest is the inner command). */
  stopAtPositional?: boolean;
}

export interface Options {
  short: Set<string>;
  long: Map<string, string | true>;
  /** Values of options that take one, keyed `-o` or `--output`. */
  values: Map<string, Word[]>;
  positional: Word[];
  /** Index in args where the positional words (or the inner command) start when stopAtPositional. */
  rest: number;
  /** Some word is computed at run time. */
  dynamic: boolean;
}

export function parseOptions(args: Word[], spec: OptionSpec = {}): Options {
  const out: Options = {
    short: new Set(),
    long: new Map(),
    values: new Map(),
    positional: [],
    rest: args.length,
    dynamic: false,
  };
  const addValue = (key: string, w: Word | undefined) => {
    if (!w) return;
    const list = out.values.get(key) ?? [];
    list.push(w);
    out.values.set(key, list);
  };
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i];
    if (!w.static) out.dynamic = true;
    const a = w.value;
    if (a === '--') {
      i++;
      break;
    }
    if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
      if (eq >= 0) {
        out.long.set(name, a.slice(eq + 1));
        addValue(`--${name}`, { ...w, value: a.slice(eq + 1) });
      } else if (spec.longArgs?.includes(name)) {
        out.long.set(name, args[i + 1]?.value ?? '');
        addValue(`--${name}`, args[++i]);
      } else out.long.set(name, true);
      continue;
    }
    if (a.startsWith('-') && a.length > 1 && w.static) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j];
        out.short.add(c);
        if (spec.shortArgs?.includes(c)) {
          if (j + 1 < a.length) addValue(`-${c}`, { ...w, value: a.slice(j + 1) });
          else addValue(`-${c}`, args[++i]);
          break;
        }
      }
      continue;
    }
    if (spec.stopAtPositional) break;
    out.positional.push(w);
  }
  out.rest = i;
  for (; i < args.length; i++) {
    if (!args[i].static) out.dynamic = true;
    if (!spec.stopAtPositional) out.positional.push(args[i]);
  }
  return out;
}

export function hasFlag(o: Options, short: string, long: readonly string[] = []): boolean {
  for (const c of short) if (o.short.has(c)) return true;
  return long.some((l) => o.long.has(l));
}

/** A long flag given with any value, or any of several prefixes (`--force-with-lease=...`). */
export function hasLongPrefix(o: Options, prefixes: readonly string[]): boolean {
  for (const name of o.long.keys()) if (prefixes.some((p) => name === p || name.startsWith(`${p}-`))) return true;
  return false;
}

/** Some long flag given is any of these names or an abbreviation of one (`--checkpoint-act`). */
export function abbreviates(o: Options, names: readonly string[]): boolean {
  for (const given of o.long.keys()) if (given && names.some((n) => n.startsWith(given))) return true;
  return false;
}
