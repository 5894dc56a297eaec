// The pattern language's parser: the model's pattern (JavaScript/PCRE syntax, lenient about
// escaped punctuation) becomes a flat list of tokens, which regex.ts writes out for each engine.

export class PatternError extends Error {}

export type Shorthand = 'd' | 'D' | 'w' | 'W' | 's' | 'S';
export type ClassItem =
  | { t: 'char'; cp: number }
  | { t: 'range'; from: number; to: number }
  | { t: 'short'; k: Shorthand }
  | { t: 'prop'; neg: boolean; name: string };
export type GroupKind = 'capture' | 'plain' | 'named' | 'ahead' | 'nahead' | 'behind' | 'nbehind';
export type Token =
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

const POSIX: Record<string, [number, number][]> = {
  alnum: [
    [48, 57],
    [65, 90],
    [97, 122],
  ],
  alpha: [
    [65, 90],
    [97, 122],
  ],
  digit: [[48, 57]],
  lower: [[97, 122]],
  upper: [[65, 90]],
  space: [
    [9, 13],
    [32, 32],
  ],
  blank: [
    [9, 9],
    [32, 32],
  ],
  punct: [
    [33, 47],
    [58, 64],
    [91, 96],
    [123, 126],
  ],
  xdigit: [
    [48, 57],
    [65, 70],
    [97, 102],
  ],
  word: [
    [48, 57],
    [65, 90],
    [95, 95],
    [97, 122],
  ],
  cntrl: [
    [0, 31],
    [127, 127],
  ],
  print: [[32, 126]],
  graph: [[33, 126]],
};
const ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11, '0': 0, a: 7, e: 27 };

export class Parser {
  pos = 0;
  depth = 0;
  readonly tokens: Token[] = [];
  /** Inline flags given at the start, like (?i). */
  readonly flags: string[] = [];
  constructor(readonly src: string) {}

  fail(what: string, at = this.pos): never {
    throw new PatternError(
      `invalid regular expression at position ${at + 1}: ${what}. Escape special characters with \\ or set literal: true to search for the text as is.`,
    );
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
        if (counted && counted[2] !== undefined && counted[2] !== '' && Number(counted[2]) < Number(counted[1]))
          this.fail(`"${text}" has its bounds the wrong way round`, start);
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
      if (this.tokens.length > 0)
        this.fail('inline flags like (?i) are only supported at the very start of the pattern');
      if (m[1].includes('x')) this.fail('the (?x) flag is not supported');
      this.pos += m[0].length;
      this.flags.push(m[1]);
      return;
    }
    const kinds: [string, GroupKind][] = [
      ['(?:', 'plain'],
      ['(?=', 'ahead'],
      ['(?!', 'nahead'],
      ['(?<=', 'behind'],
      ['(?<!', 'nbehind'],
    ];
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
      const m =
        /^\{([0-9A-Fa-f]{1,6})\}/.exec(this.src.slice(this.pos)) ??
        (c === 'x' ? /^([0-9A-Fa-f]{2})/ : /^([0-9A-Fa-f]{4})/).exec(this.src.slice(this.pos));
      if (!m) this.fail(`\\${c} needs hex digits (\\x41, \\u0041, \\u{1F600})`, at);
      this.pos += m[0].length;
      const cp = parseInt(m[1], 16);
      if (cp > 0x10ffff) this.fail('code point out of range', at);
      return push({ t: 'char', cp });
    }
    if (c === 'c' && /[A-Za-z]/.test(this.peek() ?? ''))
      return push({ t: 'char', cp: this.src.charCodeAt(this.pos++) % 32 });
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
