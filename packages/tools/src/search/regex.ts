// One pattern language for both grep engines. The model's pattern (JavaScript/PCRE syntax) is
// parsed once into tokens (pattern.ts) and written out three ways for JavaScript (one line at a
// time; a whole-buffer prefilter; multiline) and once for ripgrep's Rust regex, with the meaning pinned so
// both engines agree: \d \w \b are ASCII, \s is JavaScript's whitespace set, `.` is anything but \n,
// ^ and $ are line anchors. Look-around and backreferences exist only in JavaScript: such
// patterns run on the JS engine.

import { requiredLiterals, type Literals } from './literals.js';
import { Parser, PatternError, type Shorthand, type Token } from './pattern.js';

export { PatternError };

export interface CompiledPattern {
  /** Tests one line (no line terminator in it). */
  line: RegExp;
  /** Global, multi-line regex over a whole buffer that matches wherever a line matches (a superset); absent with look-around. */
  prefilter: RegExp | undefined;
  /** Global regex over a whole text for multiline searches. */
  multi: RegExp;
  /** The pattern in ripgrep's syntax (with (?i) when case-insensitive), or undefined when only the JS engine can run it. */
  rust: string | undefined;
  /** Why rg cannot run it. */
  jsOnly?: string;
  canMatchNewline: boolean;
  caseInsensitive: boolean;
  /** Strings every match contains (one of `any`, all of `all`), for skipping bytes undecoded. */
  literals: Literals | undefined;
}

const WS = [
  [9, 13],
  [32, 32],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
] as const;

const hex = (cp: number) => cp.toString(16).toUpperCase();
const jsChar = (cp: number, inClass: boolean) => {
  const ch = String.fromCodePoint(cp);
  if (cp < 32 || cp === 127 || (cp >= 0x80 && cp < 0xa0) || cp === 0x2028 || cp === 0x2029) return `\\u{${hex(cp)}}`;
  if (inClass ? /[\\\][^-]/.test(ch) : /[\\^$.*+?()[\]{}|/]/.test(ch)) return `\\${ch}`;
  return ch;
};
const rustChar = (cp: number) =>
  /[A-Za-z0-9_ ]/.test(String.fromCodePoint(cp)) ? String.fromCodePoint(cp) : `\\x{${hex(cp)}}`;
const wsItems = (char: (cp: number) => string) =>
  WS.map(([a, b]) => (a === b ? char(a) : `${char(a)}-${char(b)}`)).join('');
const RUST_SHORT: Record<Shorthand, string> = {
  d: '0-9',
  w: '0-9A-Za-z_',
  s: wsItems(rustChar),
  D: '[^0-9]',
  W: '[^0-9A-Za-z_]',
  S: `[^${wsItems(rustChar)}]`,
};

type Mode = 'line' | 'prefilter' | 'multi';

function emitJs(tokens: Token[], mode: Mode, dotAll: boolean): string {
  let out = '';
  for (const tok of tokens) {
    switch (tok.t) {
      case 'char':
        out += jsChar(tok.cp, false);
        break;
      case 'any':
        out += dotAll ? '[^]' : '[^\\n]';
        break;
      case 'bol':
        out += mode === 'multi' ? '(?<![^\\n])' : '^';
        break;
      case 'eol':
        out += mode === 'multi' ? '(?![^\\n])' : '$';
        break;
      case 'wordb':
        out += tok.neg ? '\\B' : '\\b';
        break;
      case 'short':
        out += `\\${tok.k}`;
        break;
      case 'prop':
        out += `\\${tok.neg ? 'P' : 'p'}{${tok.name}}`;
        break;
      case 'class':
        out += `[${tok.neg ? '^' : ''}${tok.items.map((i) => (i.t === 'char' ? jsChar(i.cp, true) : i.t === 'range' ? `${jsChar(i.from, true)}-${jsChar(i.to, true)}` : i.t === 'short' ? `\\${i.k}` : `\\${i.neg ? 'P' : 'p'}{${i.name}}`)).join('')}]`;
        break;
      case 'open':
        out += {
          capture: '(',
          plain: '(?:',
          named: `(?<${tok.name}>`,
          ahead: '(?=',
          nahead: '(?!',
          behind: '(?<=',
          nbehind: '(?<!',
        }[tok.kind];
        break;
      case 'close':
        out += ')';
        break;
      case 'alt':
        out += '|';
        break;
      case 'quant':
        out += tok.text;
        break;
      case 'backref':
        out += tok.ref.startsWith('<') ? `\\k${tok.ref}` : `\\${tok.ref}`;
        break;
    }
  }
  return out;
}

function emitRust(tokens: Token[], dotAll: boolean): { rust?: string; jsOnly?: string } {
  let out = '';
  for (const tok of tokens) {
    switch (tok.t) {
      case 'char':
        out += rustChar(tok.cp);
        break;
      case 'any':
        out += dotAll ? '(?s:.)' : '.';
        break;
      case 'bol':
        out += '^';
        break;
      case 'eol':
        out += '$';
        break;
      case 'wordb':
        out += tok.neg ? '(?-u:\\B)' : '(?-u:\\b)';
        break;
      case 'short':
        out += tok.k === tok.k.toLowerCase() ? `[${RUST_SHORT[tok.k]}]` : RUST_SHORT[tok.k];
        break;
      case 'prop':
        out += `\\${tok.neg ? 'P' : 'p'}{${tok.name}}`;
        break;
      case 'class':
        out += `[${tok.neg ? '^' : ''}${tok.items.map((i) => (i.t === 'char' ? rustChar(i.cp) : i.t === 'range' ? `${rustChar(i.from)}-${rustChar(i.to)}` : i.t === 'short' ? RUST_SHORT[i.k] : `\\${i.neg ? 'P' : 'p'}{${i.name}}`)).join('')}]`;
        break;
      case 'open':
        if (tok.kind === 'capture' || tok.kind === 'plain') out += tok.kind === 'capture' ? '(' : '(?:';
        else if (tok.kind === 'named') out += `(?P<${tok.name}>`;
        else return { jsOnly: 'look-around' };
        break;
      case 'close':
        out += ')';
        break;
      case 'alt':
        out += '|';
        break;
      case 'quant':
        out += tok.text;
        break;
      case 'backref':
        return { jsOnly: 'backreferences' };
    }
  }
  return { rust: out };
}

/** Single tokens that can consume a newline make the pattern able to match across lines. */
function canMatchNewline(tokens: Token[], dotAll: boolean): boolean {
  return tokens.some((tok) => {
    if (!['char', 'any', 'short', 'prop', 'class'].includes(tok.t)) return false;
    return new RegExp(`^${emitJs([tok], 'line', dotAll)}$`, 'u').test('\n');
  });
}

export interface PatternOptions {
  caseInsensitive?: boolean;
  literal?: boolean;
  multiline?: boolean;
}

export function compilePattern(pattern: string, opts: PatternOptions = {}): CompiledPattern {
  if (pattern === '') throw new PatternError('the pattern is empty; give text or a regular expression to search for.');
  const parser = opts.literal ? undefined : new Parser(pattern);
  const tokens: Token[] = parser
    ? parser.parse()
    : Array.from(pattern, (ch) => ({ t: 'char' as const, cp: ch.codePointAt(0)! }));
  const inline = parser?.flags.join('') ?? '';
  const caseInsensitive = opts.caseInsensitive === true || inline.includes('i');
  const dotAll = inline.includes('s');
  const newline = canMatchNewline(tokens, dotAll);
  if (!opts.multiline && tokens.some((t) => t.t === 'char' && t.cp === 10)) {
    throw new PatternError('the pattern contains a newline (\\n); set multiline: true to match across lines.');
  }
  const flags = `u${caseInsensitive ? 'i' : ''}`;
  const lookaround = tokens.some((t) => t.t === 'open' && ['ahead', 'nahead', 'behind', 'nbehind'].includes(t.kind));
  let line: RegExp;
  let multi: RegExp;
  try {
    line = new RegExp(emitJs(tokens, 'line', dotAll), flags);
    multi = new RegExp(emitJs(tokens, 'multi', dotAll), `g${flags}`);
  } catch (err) {
    throw new PatternError(
      `invalid regular expression: ${(err as Error).message.replace(/^Invalid regular expression: /, '')}.`,
    );
  }
  const prefilter = lookaround ? undefined : new RegExp(emitJs(tokens, 'prefilter', dotAll), `gm${flags}`);
  const { rust, jsOnly } = emitRust(tokens, dotAll);
  const literals = requiredLiterals(tokens, caseInsensitive);
  return {
    line,
    prefilter,
    multi,
    rust: rust !== undefined && caseInsensitive ? `(?i)${rust}` : rust,
    ...(jsOnly ? { jsOnly } : {}),
    canMatchNewline: newline,
    caseInsensitive,
    literals,
  };
}
