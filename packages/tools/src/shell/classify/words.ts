// Shell words as bash would see them: quotes removed, escapes applied, `~` and $HOME expanded,
// and anything computed at run time ($VAR, $(cmd)) marked as unknown rather than guessed.
import { readFileSync } from 'node:fs';
import type { Node } from 'web-tree-sitter';

/** Stands for a part of a word only known at run time. */
export const UNKNOWN = '\u0000';

export interface Word {
  /** The value bash passes; computed parts appear as UNKNOWN. */
  value: string;
  /** The value with quoted or escaped characters backslash-escaped, so unquoted globs and braces stand out. */
  pattern: string;
  /** Every part is known (literals, quotes, `~`, $HOME). */
  static: boolean;
  source: string;
  /** `~` or $HOME was expanded: the source says it better than the value. */
  home?: boolean;
  /** A process substitution `<(cmd)`: a pipe's path, not a file in the tree. */
  pipe?: boolean;
  /**
   * A file found below these start paths at run time (`{}` of find -exec, names find gives xargs).
   * `split`: the names reach the command through xargs, which splits them at blanks or newlines.
   * `bare`: they are relative to the start, so each begins with the name of an entry there.
   */
  under?: { starts: Word[]; follow: boolean; split?: 'blank' | 'newline' | 'shell'; bare?: boolean };
}

const HOME_VARS = new Set(['HOME']);

/**
 * Values known before the script runs, beyond $HOME: the cwd (for $PWD and `$(pwd)`) and `for`
 * variables while their loop's body is walked (one value of the list at a time).
 */
export interface Known {
  cwd?: string;
  vars?: ReadonlyMap<string, string>;
}

interface Ctx {
  home: string;
  known: Known;
}

export function literalWord(text: string): Word {
  return { value: text, pattern: escapeAll(text), static: true, source: text };
}

export function escapeAll(text: string): string {
  return text.replace(/[\\*?[\]{},~]/g, (c) => `\\${c}`);
}

function unescapePattern(pattern: string): string {
  return pattern.replace(/\\([\s\S])/g, '$1');
}

interface Part {
  value: string;
  pattern: string;
  static: boolean;
  home?: boolean;
}

const unknownPart: Part = { value: UNKNOWN, pattern: UNKNOWN, static: false };

export function resolveWord(node: Node, home: string, known: Known = {}): Word {
  if (node.type === 'process_substitution')
    return { value: '/dev/fd/63', pattern: '/dev/fd/63', static: true, source: node.text, pipe: true };
  const p = part(node, { home, known }, true);
  return { value: p.value, pattern: p.pattern, static: p.static, source: node.text, ...(p.home ? { home: true } : {}) };
}

function part(node: Node, c: Ctx, atStart: boolean): Part {
  switch (node.type) {
    case 'word':
      return bareWord(node.text, c.home, atStart);
    case 'number':
      return { value: node.text, pattern: node.text, static: true };
    case 'raw_string': {
      const inner = node.text.slice(1, -1);
      return { value: inner, pattern: escapeAll(inner), static: true };
    }
    case 'ansi_c_string': {
      const { value, exact } = decodeAnsiC(node.text.slice(2, -1));
      return exact ? { value, pattern: escapeAll(value), static: true } : unknownPart;
    }
    case 'brace_expression':
      // `{1..3}`: expanded later (expandBraces), like `{a,b}` in a plain word.
      return isSequence(node.text.slice(1, -1)) ? { value: node.text, pattern: node.text, static: true } : unknownPart;
    case 'string':
    case 'translated_string':
      return joined(node, c, 'quoted');
    case 'concatenation':
      return joined(node, c, 'bare', atStart);
    case 'simple_expansion':
    case 'expansion':
      return homeExpansion(node, c.home) ?? knownExpansion(node, c.known, false) ?? unknownPart;
    case 'command_substitution':
      return workingDirectory(node, c.known, false) ?? userId(node) ?? absolutePath(node) ?? unknownPart;
    default:
      return unknownPart;
  }
}

/** Children of a string or concatenation, with the text between them kept as literal. */
function joined(node: Node, c: Ctx, mode: 'quoted' | 'bare', atStart = false): Part {
  const src = node.text;
  const base = node.startIndex;
  let value = '';
  let pattern = '';
  let isStatic = true;
  let usedHome = false;
  let pos = mode === 'quoted' ? (node.type === 'translated_string' ? 2 : 1) : 0;
  const end = mode === 'quoted' ? src.length - 1 : src.length;
  const addLiteral = (text: string) => {
    if (!text) return;
    if (mode === 'quoted') {
      const v = text.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c));
      value += v;
      pattern += escapeAll(v);
    } else {
      const p = bareWord(text, c.home, atStart && value === '');
      value += p.value;
      pattern += p.pattern;
      usedHome ||= !!p.home;
    }
  };
  for (const child of node.children) {
    if (!child) continue;
    const from = child.startIndex - base;
    const to = child.endIndex - base;
    if (from < pos || to > end) continue; // the quotes themselves
    addLiteral(src.slice(pos, from));
    if (child.type === 'string_content') addLiteral(child.text);
    else {
      const p = mode === 'quoted' ? quotedPart(child, c) : part(child, c, atStart && value === '');
      value += p.value;
      pattern += p.pattern;
      isStatic &&= p.static;
      usedHome ||= !!p.home;
    }
    pos = to;
  }
  addLiteral(src.slice(pos, end));
  return { value, pattern, static: isStatic, ...(usedHome ? { home: true } : {}) };
}

function quotedPart(node: Node, c: Ctx): Part {
  if (node.type === 'simple_expansion' || node.type === 'expansion') {
    const h = homeExpansion(node, c.home);
    if (h) return { value: h.value, pattern: escapeAll(h.value), static: true, home: true };
    return knownExpansion(node, c.known, true) ?? unknownPart;
  }
  if (node.type === 'command_substitution')
    return workingDirectory(node, c.known, true) ?? userId(node) ?? absolutePath(node) ?? unknownPart;
  return unknownPart;
}

/** Unquoted, a value is split at blanks and globbed: only one without blanks or glob characters stays itself. */
function knownPart(value: string, quoted: boolean): Part | undefined {
  if (!quoted && /[\s*?[\]\\]/.test(value)) return undefined;
  return { value, pattern: escapeAll(value), static: true };
}

/** `$f` / `${f}` of a bound `for` variable, and $PWD. */
function knownExpansion(node: Node, known: Known, quoted: boolean): Part | undefined {
  const m = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(node.text);
  if (!m || node.text.startsWith('${') !== node.text.endsWith('}')) return undefined;
  const value = known.vars?.get(m[1]) ?? (m[1] === 'PWD' ? known.cwd : undefined);
  return value === undefined ? undefined : knownPart(value, quoted);
}

/**
 * `$(which node)`, `$(realpath x)`, `$(readlink -f x)`: paths (absolute, or `./x` from a relative
 * PATH entry), never an option, though not a path known before it runs: fine where a command takes
 * data (`dirname $(which node)`), computed where it reads a file. Not `realpath --relative-to=…`,
 * whose output may be `-x`.
 */
const PATH_PRINTERS = /^\$\(\s*(which|realpath|readlink\s+-[fem])(\s+(?!--rel)[^\s;&|`$()<>'"\\]+)+\s*\)$/;
function absolutePath(node: Node): Part | undefined {
  return PATH_PRINTERS.test(node.text) ? { value: `/${UNKNOWN}`, pattern: `/${UNKNOWN}`, static: false } : undefined;
}

/** `$(id -u)`, `$(id -g)`: a number (the uid it runs as may differ in the sandbox; a number either way). */
function userId(node: Node): Part | undefined {
  if (!/^\$\(\s*id\s+-[ug]\s*\)$/.test(node.text)) return undefined;
  const id = String(process.getuid?.() ?? 0);
  return { value: id, pattern: id, static: true };
}

/** `$(pwd)` (or `-L`/`-P`): the directory it runs in. */
function workingDirectory(node: Node, known: Known, quoted: boolean): Part | undefined {
  if (known.cwd === undefined || !/^\$\(\s*pwd(\s+-[LP])?\s*\)$/.test(node.text)) return undefined;
  return knownPart(known.cwd, quoted);
}

function homeExpansion(node: Node, home: string): Part | undefined {
  const m = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(node.text);
  if (m && HOME_VARS.has(m[1]) && node.text.startsWith('${') === node.text.endsWith('}')) {
    return { value: home, pattern: escapeAll(home), static: true, home: true };
  }
  return undefined;
}

/** An unquoted word: backslash escapes, and `~` at the start. */
function bareWord(text: string, home: string, atStart: boolean): Part {
  let value = '';
  let pattern = '';
  let i = 0;
  let usedHome = false;
  if (atStart && text.startsWith('~')) {
    const slash = text.indexOf('/');
    const user = text.slice(1, slash < 0 ? text.length : slash);
    // `~name` is name's home from the passwd database; `~+`, `~-`, `~2` and a name we cannot
    // look up are not known (bash may still expand them).
    const dir = user === '' ? home : userHome(user);
    if (dir === undefined) return { ...unknownPart };
    value = dir;
    pattern = escapeAll(dir);
    usedHome = true;
    i = 1 + user.length;
  }
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && i + 1 < text.length) {
      const next = text[++i];
      if (next === '\n') continue;
      value += next;
      pattern += `\\${next}`;
    } else {
      value += c;
      pattern += c;
    }
  }
  return { value, pattern, static: true, ...(usedHome ? { home: true } : {}) };
}

let passwd: Map<string, string> | undefined;

/** A user's home directory from /etc/passwd, or undefined (no such line, or no file). */
export function userHome(name: string): string | undefined {
  if (!/^[A-Za-z0-9._][A-Za-z0-9._-]*$/.test(name)) return undefined;
  if (!passwd) {
    passwd = new Map();
    try {
      for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
        const f = line.split(':');
        if (f.length >= 7 && f[5]) passwd.set(f[0], f[5]);
      }
    } catch {
      // no passwd file: nothing is known
    }
  }
  return passwd.get(name);
}

const ANSI_SIMPLE: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

const HEX = /[0-9A-Fa-f]/;

/**
 * `$'...'` as bash decodes it: `\n`-style escapes, `\NNN` octal (1-3 digits), `\xHH` (1-2),
 * `\uHHHH` (1-4), `\UHHHHHHHH` (1-8), `\cX` (control X; `\c?` is DEL), unknown escapes kept with
 * their backslash, and the string cut at the first NUL it makes (`$'.env\0x'` is `.env`).
 * `exact` is false when an escape makes a byte or character beyond ASCII: which bytes the command
 * gets then depends on the locale, so the word is not taken as known.
 */
export function decodeAnsiC(s: string): { value: string; exact: boolean } {
  let out = '';
  let exact = true;
  const emit = (code: number): boolean => {
    if (code === 0) return false;
    if (code > 0x7f) exact = false;
    out += String.fromCodePoint(Math.min(code, 0x10ffff));
    return true;
  };
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== '\\' || i + 1 >= s.length) {
      out += s[i];
      continue;
    }
    const e = s[++i];
    if (e in ANSI_SIMPLE) out += ANSI_SIMPLE[e];
    else if (e >= '0' && e <= '7') {
      let digits = e;
      while (digits.length < 3 && s[i + 1] >= '0' && s[i + 1] <= '7') digits += s[++i];
      if (!emit(parseInt(digits, 8) & 0xff)) break;
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const max = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      let digits = '';
      while (digits.length < max && i + 1 < s.length && HEX.test(s[i + 1])) digits += s[++i];
      if (!digits) out += `\\${e}`;
      else if (!emit(parseInt(digits, 16))) break;
    } else if (e === 'c' && i + 1 < s.length) {
      const c = s[++i];
      if (c === '\\' && s[i + 1] === '\\') i++;
      const code = c === '?' ? 0x7f : c.toUpperCase().charCodeAt(0) & 0x1f;
      if (!emit(code)) break;
    } else out += `\\${e}`;
  }
  return { value: out, exact };
}

/** True when the word has an unquoted glob character. */
export function hasGlob(w: Word): boolean {
  return /(^|[^\\])(\\\\)*[*?[]/.test(w.pattern);
}

/** What brace expansion may spend: words made (counted, capped) and a clock. */
export interface ExpansionBudget {
  spendWords(n: number): void;
  tick(): void;
  readonly limits: { words: number };
}

/**
 * Brace expansion as bash does it (`{rm,-rf,/}` -> `rm`, `-rf`, `/`; `{a..e}`, `{1..10..2}`,
 * `{01..10}`) of a known word; other words as they are. Every word made is spent from `budget`,
 * which throws when there are too many: `{a,b,c,d,e,f,g,h,i,j}` seven times is ten million words.
 */
export function expandBraces(w: Word, budget: ExpansionBudget): Word[] {
  if (!w.static || !/[{]/.test(w.pattern)) return [w];
  const out: string[] = [];
  const work = [w.pattern];
  while (work.length) {
    budget.tick();
    const p = work.pop()!;
    const g = firstGroup(p, budget);
    if (!g) {
      out.push(p);
      budget.spendWords(1);
      continue;
    }
    for (let i = g.alts.length - 1; i >= 0; i--) work.push(g.pre + g.alts[i] + g.post);
  }
  if (out.length === 1 && out[0] === w.pattern) return [w];
  return out.map((p) => ({ value: unescapePattern(p), pattern: p, static: true, source: w.source }));
}

/** The first group bash would expand: `{a,b}` (commas at its own level) or a sequence `{x..y[..n]}`. */
function firstGroup(p: string, budget: ExpansionBudget): { pre: string; alts: string[]; post: string } | undefined {
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '\\') {
      i++;
      continue;
    }
    if (p[i] !== '{') continue;
    let level = 0;
    const commas: number[] = [];
    for (let j = i; j < p.length; j++) {
      const c = p[j];
      if (c === '\\') {
        j++;
        continue;
      }
      if (c === '{') level++;
      else if (c === '}' && --level === 0) {
        const pre = p.slice(0, i);
        const post = p.slice(j + 1);
        if (!commas.length) {
          const seq = sequence(p.slice(i + 1, j), budget);
          if (seq) return { pre, alts: seq, post };
          break;
        }
        const alts: string[] = [];
        let from = i + 1;
        for (const k of [...commas, j]) {
          alts.push(p.slice(from, k));
          from = k + 1;
        }
        return { pre, alts, post };
      } else if (c === ',' && level === 1) commas.push(j);
    }
  }
  return undefined;
}

const NUM_SEQ = /^([-+]?\d+)\.\.([-+]?\d+)(?:\.\.([-+]?\d+))?$/;
const CHAR_SEQ = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.([-+]?\d+))?$/;

export function isSequence(inner: string): boolean {
  return NUM_SEQ.test(inner) || CHAR_SEQ.test(inner);
}

/** The words of `{x..y..step}` (integers, zero-padded when an end is; or single letters), or undefined. */
function sequence(inner: string, budget: ExpansionBudget): string[] | undefined {
  const num = NUM_SEQ.exec(inner);
  const chr = num ? undefined : CHAR_SEQ.exec(inner);
  const m = num ?? chr;
  if (!m) return undefined;
  const from = num ? parseInt(m[1], 10) : m[1].charCodeAt(0);
  const to = num ? parseInt(m[2], 10) : m[2].charCodeAt(0);
  const step = Math.max(1, Math.abs(parseInt(m[3] ?? '1', 10) || 1));
  const count = Math.floor(Math.abs(to - from) / step) + 1;
  if (count > budget.limits.words) budget.spendWords(count);
  const width = num && (/^[-+]?0\d/.test(m[1]) || /^[-+]?0\d/.test(m[2])) ? Math.max(m[1].length, m[2].length) : 0;
  const out: string[] = [];
  for (let k = 0, v = from; k < count; k++, v += from <= to ? step : -step) {
    out.push(num ? pad(v, width) : escapeAll(String.fromCharCode(v)));
  }
  return out;
}

function pad(v: number, width: number): string {
  const digits = String(Math.abs(v)).padStart(v < 0 ? width - 1 : width, '0');
  return v < 0 ? `-${digits}` : digits;
}

const SAFE_BARE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** A word as it appears in a normalized command: bare when safe, single-quoted when not. */
export function render(w: Word): string {
  if (!w.static || w.home || w.pipe) return w.source.replace(/\s+/g, ' ');
  if (SAFE_BARE.test(w.value)) return w.value;
  // Unquoted globs stay globs.
  if (w.pattern === w.value && /^[^\s'"\\$`;&|<>()]+$/.test(w.value)) return w.value;
  return `'${w.value.replace(/'/g, `'\\''`)}'`;
}
