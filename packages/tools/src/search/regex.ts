// One pattern language for both grep engines. The model's pattern (JavaScript/PCRE syntax) is
// parsed once into tokens and written out three ways for JavaScript (one line at a time; a
// whole-buffer prefilter; multiline) and once for ripgrep's Rust regex, with the meaning pinned so
// both engines agree: \d \w \b are ASCII, \s is JavaScript's whitespace set, `.` is anything but \n,
// ^ and $ are line anchors. Look-around and backreferences exist only in JavaScript: such
// patterns run on the JS engine.

export class PatternError extends Error {}

type Shorthand = 'd' | 'D' | 'w' | 'W' | 's' | 'S';
type ClassItem = { t: 'char'; cp: number } | { t: 'range'; from: number; to: number } | { t: 'short'; k: Shorthand } | { t: 'prop'; neg: boolean; name: string };
type GroupKind = 'capture' | 'plain' | 'named' | 'ahead' | 'nahead' | 'behind' | 'nbehind';
type Token =
  | { t: 'char'; cp: number }
  | { t: 'any' }
  | { t: 'bol' }
  | { t: 'eol' }
  | { t: 'wordb'; neg: boolean }
  | { t: 'short'; k: Shorthand }
  | { t: 'prop'; neg: boolean; name: string }
  | { t: 'class'; neg: boolean; items: ClassItem[] }
  | { t: 'open'; kind: GroupKind; name?: string }
  | { t: 'close' }
  | { t: 'alt' }
  | { t: 'quant'; text: string }
  | { t: 'backref'; ref: string };

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
  /** Every match contains one of these strings: a file holding none of them can be skipped unread. */
  needles: string[] | undefined;
}

const WS = [[9, 13], [32, 32], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff]] as const;
const POSIX: Record<string, [number, number][]> = {
  alnum: [[48, 57], [65, 90], [97, 122]], alpha: [[65, 90], [97, 122]], digit: [[48, 57]], lower: [[97, 122]], upper: [[65, 90]],
  space: [[9, 13], [32, 32]], blank: [[9, 9], [32, 32]], punct: [[33, 47], [58, 64], [91, 96], [123, 126]], xdigit: [[48, 57], [65, 70], [97, 102]],
  word: [[48, 57], [65, 90], [95, 95], [97, 122]], cntrl: [[0, 31], [127, 127]], print: [[32, 126]], graph: [[33, 126]],
};
const ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11, '0': 0, a: 7, e: 27 };

class Parser {
  pos = 0;
  depth = 0;
  readonly tokens: Token[] = [];
  /** Inline flags given at the start, like (?i). */
  readonly flags: string[] = [];
  constructor(readonly src: string) {}

  fail(what: string, at = this.pos): never {
    throw new PatternError(`invalid regular expression at position ${at + 1}: ${what}. Escape special characters with \\ or set literal: true to search for the text as is.`);
  }
  peek(n = 0): string | undefined {
    return this.src[this.pos + n];
  }
  cp(): number {
    const c = this.src.codePointAt(this.pos)!;
    this.pos += c > 0xffff ? 2 : 1;
    return c;
  }

  parse(): Token[] {
    while (this.pos < this.src.length) this.atom();
    if (this.depth > 0) this.fail('a group "(" is not closed', this.src.length - 1);
    return this.tokens;
  }

  private quantifiable(): boolean {
    const last = this.tokens[this.tokens.length - 1];
    return last !== undefined && !['open', 'alt', 'quant', 'bol', 'eol', 'wordb'].includes(last.t);
  }

  private atom(): void {
    const c = this.peek()!;
    const start = this.pos;
    switch (c) {
      case '\\':
        this.escape(false);
        return;
      case '[':
        return this.klass();
      case '(':
        return this.group();
      case ')':
        if (this.depth === 0) this.fail('")" without a matching "("');
        this.depth--;
        this.pos++;
        this.tokens.push({ t: 'close' });
        return;
      case '|':
        this.pos++;
        this.tokens.push({ t: 'alt' });
        return;
      case '.':
        this.pos++;
        this.tokens.push({ t: 'any' });
        return;
      case '^':
        this.pos++;
        this.tokens.push({ t: 'bol' });
        return;
      case '$':
        this.pos++;
        this.tokens.push({ t: 'eol' });
        return;
      case '*':
      case '+':
      case '?':
      case '{': {
        const m = /^(?:[*+?]|\{\d+(?:,\d*)?\})/.exec(this.src.slice(this.pos));
        if (!m) break; // a "{" that is not a counted repetition is a literal
        if (!this.quantifiable()) this.fail(`"${m[0]}" has nothing to repeat`);
        this.pos += m[0].length;
        let text = m[0];
        const counted = /^\{(\d+)(?:,(\d*))?\}$/.exec(text);
        if (counted && counted[2] !== undefined && counted[2] !== '' && Number(counted[2]) < Number(counted[1])) this.fail(`"${text}" has its bounds the wrong way round`, start);
        if (this.peek() === '?') {
          text += '?';
          this.pos++;
        }
        if (this.peek() === '+') this.fail('possessive quantifiers ("*+", "++") are not supported');
        this.tokens.push({ t: 'quant', text });
        return;
      }
    }
    this.tokens.push({ t: 'char', cp: this.cp() });
  }

  private group(): void {
    const rest = this.src.slice(this.pos);
    let m: RegExpExecArray | null;
    if ((m = /^\(\?([imsx]+)\)/.exec(rest))) {
      if (this.tokens.length > 0) this.fail('inline flags like (?i) are only supported at the very start of the pattern');
      if (m[1].includes('x')) this.fail('the (?x) flag is not supported');
      this.pos += m[0].length;
      this.flags.push(m[1]);
      return;
    }
    const kinds: [string, GroupKind][] = [['(?:', 'plain'], ['(?=', 'ahead'], ['(?!', 'nahead'], ['(?<=', 'behind'], ['(?<!', 'nbehind']];
    for (const [prefix, kind] of kinds) {
      if (rest.startsWith(prefix)) {
        this.pos += prefix.length;
        this.depth++;
        this.tokens.push({ t: 'open', kind });
        return;
      }
    }
    if ((m = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest))) {
      this.pos += m[0].length;
      this.depth++;
      this.tokens.push({ t: 'open', kind: 'named', name: m[1] });
      return;
    }
    if (rest.startsWith('(?')) this.fail('unsupported group syntax "(?"');
    this.pos++;
    this.depth++;
    this.tokens.push({ t: 'open', kind: 'capture' });
  }

  /** An escape outside or inside a class; inside, returns the item instead of pushing a token. */
  private escape(inClass: boolean): ClassItem | undefined {
    const at = this.pos;
    this.pos++;
    const c = this.peek();
    if (c === undefined) this.fail('the pattern ends with a lone "\\"', at);
    this.pos++;
    const push = (item: ClassItem | Token) => {
      if (inClass) return item as ClassItem;
      this.tokens.push(item as Token);
      return undefined;
    };
    if ('dDwWsS'.includes(c)) return push({ t: 'short', k: c as Shorthand });
    if (c === 'p' || c === 'P') {
      const m = /^\{([A-Za-z_=]+)\}/.exec(this.src.slice(this.pos));
      if (!m) this.fail(`\\${c} needs a property name in braces, like \\p{L}`, at);
      this.pos += m[0].length;
      try {
        new RegExp(`\\p{${m[1]}}`, 'u');
      } catch {
        this.fail(`unknown Unicode property "${m[1]}"`, at);
      }
      return push({ t: 'prop', neg: c === 'P', name: m[1] });
    }
    if (!inClass && (c === 'b' || c === 'B')) return push({ t: 'wordb', neg: c === 'B' });
    if (c === 'b' && inClass) return push({ t: 'char', cp: 8 });
    if (!inClass && /[1-9]/.test(c)) {
      let ref = c;
      while (/[0-9]/.test(this.peek() ?? '')) ref += this.src[this.pos++];
      return push({ t: 'backref', ref });
    }
    if (!inClass && c === 'k' && this.peek() === '<') {
      const m = /^<([A-Za-z_][A-Za-z0-9_]*)>/.exec(this.src.slice(this.pos));
      if (!m) this.fail('\\k needs a group name, like \\k<name>', at);
      this.pos += m[0].length;
      return push({ t: 'backref', ref: `<${m[1]}>` });
    }
    if (c in ESCAPES) {
      if (c === '0' && /[0-9]/.test(this.peek() ?? '')) this.fail('octal escapes are not supported; use \\xHH', at);
      return push({ t: 'char', cp: ESCAPES[c] });
    }
    if (c === 'x' || c === 'u') {
      const m = /^\{([0-9A-Fa-f]{1,6})\}/.exec(this.src.slice(this.pos)) ?? (c === 'x' ? /^([0-9A-Fa-f]{2})/ : /^([0-9A-Fa-f]{4})/).exec(this.src.slice(this.pos));
      if (!m) this.fail(`\\${c} needs hex digits (\\x41, \\u0041, \\u{1F600})`, at);
      this.pos += m[0].length;
      const cp = parseInt(m[1], 16);
      if (cp > 0x10ffff) this.fail('code point out of range', at);
      return push({ t: 'char', cp });
    }
    if (c === 'c' && /[A-Za-z]/.test(this.peek() ?? '')) return push({ t: 'char', cp: this.src.charCodeAt(this.pos++) % 32 });
    if (/[A-Za-z0-9]/.test(c)) this.fail(`unknown escape "\\${c}"`, at);
    this.pos--;
    return push({ t: 'char', cp: this.cp() });
  }

  private klass(): void {
    const at = this.pos;
    this.pos++;
    const neg = this.peek() === '^';
    if (neg) this.pos++;
    const items: ClassItem[] = [];
    let first = true;
    for (;;) {
      const c = this.peek();
      if (c === undefined) this.fail('a "[" character class is not closed', at);
      if (c === ']' && !first) break;
      first = false;
      let item: ClassItem;
      const posix = /^\[:(\^?)([a-z]+):\]/.exec(this.src.slice(this.pos));
      if (posix) {
        const ranges = POSIX[posix[2]];
        if (!ranges) this.fail(`unknown POSIX class [:${posix[2]}:]`);
        if (posix[1]) this.fail('negated POSIX classes are not supported');
        this.pos += posix[0].length;
        for (const [from, to] of ranges) items.push({ t: 'range', from, to });
        continue;
      }
      if (c === '\\') item = this.escape(true)!;
      else item = { t: 'char', cp: this.cp() };
      if (item.t === 'char' && this.peek() === '-' && this.peek(1) !== undefined && this.peek(1) !== ']') {
        this.pos++;
        const end = this.peek() === '\\' ? this.escape(true)! : { t: 'char' as const, cp: this.cp() };
        if (end.t !== 'char') this.fail('a range must end in a single character', at);
        if (end.cp < item.cp) this.fail('a character range is out of order', at);
        item = { t: 'range', from: item.cp, to: end.cp };
      }
      items.push(item);
    }
    this.pos++;
    this.tokens.push({ t: 'class', neg, items });
  }
}

const hex = (cp: number) => cp.toString(16).toUpperCase();
const jsChar = (cp: number, inClass: boolean) => {
  const ch = String.fromCodePoint(cp);
  if (cp < 32 || cp === 127 || (cp >= 0x80 && cp < 0xa0) || cp === 0x2028 || cp === 0x2029) return `\\u{${hex(cp)}}`;
  if (inClass ? /[\\\]\[^-]/.test(ch) : /[\\^$.*+?()[\]{}|/]/.test(ch)) return `\\${ch}`;
  return ch;
};
const rustChar = (cp: number) => (/[A-Za-z0-9_ ]/.test(String.fromCodePoint(cp)) ? String.fromCodePoint(cp) : `\\x{${hex(cp)}}`);
const wsItems = (char: (cp: number) => string) => WS.map(([a, b]) => (a === b ? char(a) : `${char(a)}-${char(b)}`)).join('');
const RUST_SHORT: Record<Shorthand, string> = { d: '0-9', w: '0-9A-Za-z_', s: wsItems(rustChar), D: '[^0-9]', W: '[^0-9A-Za-z_]', S: `[^${wsItems(rustChar)}]` };

type Mode = 'line' | 'prefilter' | 'multi';

function emitJs(tokens: Token[], mode: Mode, dotAll: boolean): string {
  let out = '';
  for (const tok of tokens) {
    switch (tok.t) {
      case 'char': out += jsChar(tok.cp, false); break;
      case 'any': out += dotAll ? '[^]' : '[^\\n]'; break;
      case 'bol': out += mode === 'multi' ? '(?<![^\\n])' : '^'; break;
      case 'eol': out += mode === 'multi' ? '(?![^\\n])' : '$'; break;
      case 'wordb': out += tok.neg ? '\\B' : '\\b'; break;
      case 'short': out += `\\${tok.k}`; break;
      case 'prop': out += `\\${tok.neg ? 'P' : 'p'}{${tok.name}}`; break;
      case 'class':
        out += `[${tok.neg ? '^' : ''}${tok.items.map((i) => (i.t === 'char' ? jsChar(i.cp, true) : i.t === 'range' ? `${jsChar(i.from, true)}-${jsChar(i.to, true)}` : i.t === 'short' ? `\\${i.k}` : `\\${i.neg ? 'P' : 'p'}{${i.name}}`)).join('')}]`;
        break;
      case 'open': out += { capture: '(', plain: '(?:', named: `(?<${tok.name}>`, ahead: '(?=', nahead: '(?!', behind: '(?<=', nbehind: '(?<!' }[tok.kind]; break;
      case 'close': out += ')'; break;
      case 'alt': out += '|'; break;
      case 'quant': out += tok.text; break;
      case 'backref': out += tok.ref.startsWith('<') ? `\\k${tok.ref}` : `\\${tok.ref}`; break;
    }
  }
  return out;
}

function emitRust(tokens: Token[], dotAll: boolean): { rust?: string; jsOnly?: string } {
  let out = '';
  for (const tok of tokens) {
    switch (tok.t) {
      case 'char': out += rustChar(tok.cp); break;
      case 'any': out += dotAll ? '(?s:.)' : '.'; break;
      case 'bol': out += '^'; break;
      case 'eol': out += '$'; break;
      case 'wordb': out += tok.neg ? '(?-u:\\B)' : '(?-u:\\b)'; break;
      case 'short': out += tok.k === tok.k.toLowerCase() ? `[${RUST_SHORT[tok.k]}]` : RUST_SHORT[tok.k]; break;
      case 'prop': out += `\\${tok.neg ? 'P' : 'p'}{${tok.name}}`; break;
      case 'class':
        out += `[${tok.neg ? '^' : ''}${tok.items.map((i) => (i.t === 'char' ? rustChar(i.cp) : i.t === 'range' ? `${rustChar(i.from)}-${rustChar(i.to)}` : i.t === 'short' ? RUST_SHORT[i.k] : `\\${i.neg ? 'P' : 'p'}{${i.name}}`)).join('')}]`;
        break;
      case 'open':
        if (tok.kind === 'capture' || tok.kind === 'plain') out += tok.kind === 'capture' ? '(' : '(?:';
        else if (tok.kind === 'named') out += `(?P<${tok.name}>`;
        else return { jsOnly: 'look-around' };
        break;
      case 'close': out += ')'; break;
      case 'alt': out += '|'; break;
      case 'quant': out += tok.text; break;
      case 'backref': return { jsOnly: 'backreferences' };
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

/** The longest run of plain characters every match must contain, outside groups and repetition. */
function requiredRun(tokens: Token[]): string | undefined {
  let best = '';
  let run = '';
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i];
    const repeated = tokens[i + 1]?.t === 'quant';
    if (tok.t === 'char' && !repeated) {
      run += String.fromCodePoint(tok.cp);
      if (run.length > best.length) best = run;
      continue;
    }
    run = '';
    if (tok.t === 'open') {
      // Skip the whole group: what is inside may be optional.
      let depth = 1;
      while (depth > 0 && ++i < tokens.length) depth += tokens[i].t === 'open' ? 1 : tokens[i].t === 'close' ? -1 : 0;
    }
  }
  return best || undefined;
}

/** Strings one of which every match contains, for patterns simple enough to tell. */
function needlesOf(tokens: Token[], caseInsensitive: boolean): string[] | undefined {
  if (caseInsensitive) return undefined;
  const branches: Token[][] = [[]];
  let depth = 0;
  for (const tok of tokens) {
    if (tok.t === 'open') depth++;
    if (tok.t === 'close') depth--;
    if (tok.t === 'alt' && depth === 0) branches.push([]);
    else branches[branches.length - 1].push(tok);
  }
  const runs = branches.map(requiredRun);
  if (runs.some((r) => r === undefined || r.includes('\n'))) return undefined;
  return [...new Set(runs as string[])];
}

export interface PatternOptions {
  caseInsensitive?: boolean;
  literal?: boolean;
  multiline?: boolean;
}

export function compilePattern(pattern: string, opts: PatternOptions = {}): CompiledPattern {
  if (pattern === '') throw new PatternError('the pattern is empty; give text or a regular expression to search for.');
  const parser = opts.literal ? undefined : new Parser(pattern);
  const tokens: Token[] = parser ? parser.parse() : Array.from(pattern, (ch) => ({ t: 'char' as const, cp: ch.codePointAt(0)! }));
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
    throw new PatternError(`invalid regular expression: ${(err as Error).message.replace(/^Invalid regular expression: /, '')}.`);
  }
  const prefilter = lookaround ? undefined : new RegExp(emitJs(tokens, 'prefilter', dotAll), `gm${flags}`);
  const { rust, jsOnly } = emitRust(tokens, dotAll);
  const needles = needlesOf(tokens, caseInsensitive);
  return { line, prefilter, multi, rust: rust !== undefined && caseInsensitive ? `(?i)${rust}` : rust, ...(jsOnly ? { jsOnly } : {}), canMatchNewline: newline, caseInsensitive, needles };
}
