// Shell words as bash would see them: quotes removed, escapes applied, `~` and $HOME expanded,
// and anything computed at run time ($VAR, $(cmd)) marked as unknown rather than guessed.
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
  /** A file found below these start paths at run time (`{}` of find -exec). */
  under?: { starts: Word[]; follow: boolean };
}

const HOME_VARS = new Set(['HOME']);

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

export function resolveWord(node: Node, home: string): Word {
  if (node.type === 'process_substitution') return { value: '/dev/fd/63', pattern: '/dev/fd/63', static: true, source: node.text, pipe: true };
  const p = part(node, home, true);
  return { value: p.value, pattern: p.pattern, static: p.static, source: node.text, ...(p.home ? { home: true } : {}) };
}

function part(node: Node, home: string, atStart: boolean): Part {
  switch (node.type) {
    case 'word':
      return bareWord(node.text, home, atStart);
    case 'number':
      return { value: node.text, pattern: node.text, static: true };
    case 'raw_string': {
      const inner = node.text.slice(1, -1);
      return { value: inner, pattern: escapeAll(inner), static: true };
    }
    case 'ansi_c_string': {
      const inner = decodeAnsiC(node.text.slice(2, -1));
      return { value: inner, pattern: escapeAll(inner), static: true };
    }
    case 'string':
    case 'translated_string':
      return joined(node, home, 'quoted');
    case 'concatenation':
      return joined(node, home, 'bare', atStart);
    case 'simple_expansion':
    case 'expansion':
      return homeExpansion(node, home) ?? unknownPart;
    default:
      return unknownPart;
  }
}

/** Children of a string or concatenation, with the text between them kept as literal. */
function joined(node: Node, home: string, mode: 'quoted' | 'bare', atStart = false): Part {
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
      const p = bareWord(text, home, atStart && value === '');
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
      const p = mode === 'quoted' ? quotedPart(child, home) : part(child, home, atStart && value === '');
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

function quotedPart(node: Node, home: string): Part {
  if (node.type === 'simple_expansion' || node.type === 'expansion') {
    const h = homeExpansion(node, home);
    if (h) return { value: h.value, pattern: escapeAll(h.value), static: true, home: true };
  }
  return unknownPart;
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
  if (atStart && text.startsWith('~') && (text.length === 1 || text[1] === '/')) {
    value = home;
    pattern = escapeAll(home);
    usedHome = true;
    i = 1;
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

function decodeAnsiC(s: string): string {
  return s.replace(/\\(x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|[0-7]{1,3}|c.|.)/g, (_m, esc: string) => {
    if (esc[0] === 'x' || esc[0] === 'u' || esc[0] === 'U') return String.fromCodePoint(parseInt(esc.slice(1), 16));
    if (/^[0-7]/.test(esc)) return String.fromCharCode(parseInt(esc, 8) & 0xff);
    if (esc[0] === 'c') return String.fromCharCode(esc.charCodeAt(1) & 0x1f);
    return ANSI_SIMPLE[esc] ?? `\\${esc}`;
  });
}

/** True when the word has an unquoted glob character. */
export function hasGlob(w: Word): boolean {
  return /(^|[^\\])(\\\\)*[*?[]/.test(w.pattern);
}

/** Brace expansion (`{rm,-rf,/}` -> `rm`, `-rf`, `/`) of a known word; other words as they are. */
export function expandBraces(w: Word): Word[] {
  if (!w.static || !/[{]/.test(w.pattern)) return [w];
  const out = expandPattern(w.pattern, 0);
  if (out.length <= 1) return [w];
  return out.map((p) => ({ value: unescapePattern(p), pattern: p, static: true, source: w.source }));
}

function expandPattern(p: string, depth: number): string[] {
  if (depth > 8) return [p];
  // Find the first unescaped `{` that has a matching `}` with a top-level comma between.
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
        if (!commas.length) break;
        const pre = p.slice(0, i);
        const post = p.slice(j + 1);
        const alts: string[] = [];
        let from = i + 1;
        for (const k of [...commas, j]) {
          alts.push(p.slice(from, k));
          from = k + 1;
        }
        return alts.flatMap((alt) => expandPattern(pre + alt + post, depth + 1));
      } else if (c === ',' && level === 1) commas.push(j);
    }
  }
  return [p];
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
