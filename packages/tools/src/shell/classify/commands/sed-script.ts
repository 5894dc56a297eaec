// A sed script read command by command, the way GNU sed reads it: addresses (`/re/I`, `\%re%`,
// `first~step`, `addr,+N`), `!`, blocks, labels (which end at `;` or a space: `:a;e cat .env` is a
// label and an `e` command), text of a/i/c, file names of r/R/w/W (to the end of the line), s///
// with its flags (`e`, `w FILE`) and y///. What it does beyond printing is 'write' (w, W, s///w) or
// 'execute' (e, s///e, or anything not understood).

export type SedPower = 'read' | 'write' | 'execute';

export interface SedFacts {
  power: SedPower;
  /** Files its r/R commands read into the output. */
  reads: string[];
}

class NotUnderstood extends Error {}

const NO_ARGS = '=dDgGhHnNpPxzF';
const OPTIONAL_NUMBER = 'lqQL';
const LABELLED = ':btT';

export function sedScriptFacts(script: string): SedFacts {
  const reads: string[] = [];
  try {
    return { power: new SedReader(script, reads).run(), reads };
  } catch (err) {
    if (err instanceof NotUnderstood) return { power: 'execute', reads };
    throw err;
  }
}

class SedReader {
  private i = 0;
  private power: SedPower = 'read';

  constructor(
    private readonly s: string,
    private readonly reads: string[],
  ) {}

  run(): SedPower {
    const s = this.s;
    while (this.i < s.length) {
      this.skip(' \t\n;');
      if (this.i >= s.length) break;
      if (s[this.i] === '#') {
        this.toLineEnd();
        continue;
      }
      if (s[this.i] === '}') {
        this.i++;
        this.endOfCommand();
        continue;
      }
      this.address();
      this.skip(' \t');
      while (s[this.i] === '!') {
        this.i++;
        this.skip(' \t');
      }
      this.command();
    }
    return this.power;
  }

  private raise(p: 'write' | 'execute'): void {
    if (p === 'execute' || this.power === 'read') this.power = p;
  }

  private skip(chars: string): void {
    while (this.i < this.s.length && chars.includes(this.s[this.i])) this.i++;
  }

  private toLineEnd(): string {
    const from = this.i;
    while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++;
    return this.s.slice(from, this.i);
  }

  /** After a command: spaces, then the end, a newline, `;`, `}` or a comment. */
  private endOfCommand(): void {
    this.skip(' \t');
    const c = this.s[this.i];
    if (c === undefined || c === '\n' || c === ';' || c === '}' || c === '#') return;
    throw new NotUnderstood();
  }

  /** An optional address or range. */
  private address(): void {
    if (!this.oneAddress()) return;
    this.skip(' \t');
    if (this.s[this.i] !== ',') return;
    this.i++;
    this.skip(' \t');
    if (this.s[this.i] === '+' || this.s[this.i] === '~') {
      this.i++;
      if (!this.number()) throw new NotUnderstood();
    } else if (!this.oneAddress()) throw new NotUnderstood();
  }

  private oneAddress(): boolean {
    const c = this.s[this.i];
    if (c === '$') {
      this.i++;
      return true;
    }
    if (c >= '0' && c <= '9') {
      this.number();
      if (this.s[this.i] === '~') {
        this.i++;
        if (!this.number()) throw new NotUnderstood();
      }
      return true;
    }
    if (c === '/' || c === '\\') {
      if (c === '\\') this.i++;
      const delim = this.s[this.i++];
      if (delim === undefined || delim === '\n' || delim === '\\') throw new NotUnderstood();
      this.regex(delim);
      while (this.s[this.i] === 'I' || this.s[this.i] === 'M') this.i++;
      return true;
    }
    return false;
  }

  private number(): boolean {
    const from = this.i;
    while (this.s[this.i] >= '0' && this.s[this.i] <= '9') this.i++;
    return this.i > from;
  }

  /** A regex up to the unescaped delimiter; a bracket expression may hold the delimiter. */
  private regex(delim: string): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i];
      if (c === delim) {
        this.i++;
        return;
      }
      if (c === '\n') throw new NotUnderstood();
      if (c === '\\') this.i += 2;
      else if (c === '[') this.bracket();
      else this.i++;
    }
    throw new NotUnderstood();
  }

  /** `[…]`: a leading `^` and `]` are literal, `[:class:]` nests, a backslash is literal. */
  private bracket(): void {
    const s = this.s;
    this.i++;
    if (s[this.i] === '^') this.i++;
    if (s[this.i] === ']') this.i++;
    while (this.i < s.length) {
      const c = s[this.i];
      if (c === '\n') throw new NotUnderstood();
      if (c === ']') {
        this.i++;
        return;
      }
      if (c === '[' && ':=.'.includes(s[this.i + 1])) {
        const close = s.indexOf(`${s[this.i + 1]}]`, this.i + 2);
        if (close < 0) throw new NotUnderstood();
        this.i = close + 2;
      } else this.i++;
    }
    throw new NotUnderstood();
  }

  /** The replacement of s///: up to the unescaped delimiter. */
  private replacement(delim: string): void {
    const s = this.s;
    while (this.i < s.length) {
      if (s[this.i] === delim) {
        this.i++;
        return;
      }
      this.i += s[this.i] === '\\' ? 2 : 1;
    }
    throw new NotUnderstood();
  }

  private command(): void {
    const c = this.s[this.i++];
    if (c === undefined) throw new NotUnderstood();
    if (c === '{') return;
    if (NO_ARGS.includes(c)) return this.endOfCommand();
    if (OPTIONAL_NUMBER.includes(c)) {
      this.skip(' \t');
      this.number();
      return this.endOfCommand();
    }
    if (LABELLED.includes(c)) return this.label(c === ':');
    if (c === 'a' || c === 'i' || c === 'c') return this.text();
    if (c === 'r' || c === 'R' || c === 'w' || c === 'W') return this.file(c);
    if (c === 'e') {
      this.raise('execute');
      this.toLineEnd();
      return;
    }
    if (c === 's') return this.substitute();
    if (c === 'y') return this.transliterate();
    throw new NotUnderstood();
  }

  /** A label: GNU sed ends it at a newline, `;` or a space. */
  private label(required: boolean): void {
    this.skip(' \t');
    const from = this.i;
    while (this.i < this.s.length && !' \t\n;'.includes(this.s[this.i])) this.i++;
    if (required && this.i === from) throw new NotUnderstood();
    this.endOfCommand();
  }

  /** Text of a, i, c: the rest of the line, with backslash-newline going on to the next. */
  private text(): void {
    const s = this.s;
    while (this.i < s.length && s[this.i] !== '\n') this.i += s[this.i] === '\\' ? 2 : 1;
  }

  private file(c: string): void {
    this.skip(' \t');
    const name = this.toLineEnd();
    if (c === 'w' || c === 'W') this.raise('write');
    else if (name) this.reads.push(name);
  }

  private substitute(): void {
    const delim = this.s[this.i++];
    if (delim === undefined || delim === '\n' || delim === '\\') throw new NotUnderstood();
    this.regex(delim);
    this.replacement(delim);
    while (this.i < this.s.length) {
      const f = this.s[this.i];
      if (f === 'e') this.raise('execute');
      else if (f === 'w') {
        this.i++;
        this.raise('write');
        this.skip(' \t');
        this.toLineEnd();
        return;
      } else if (!'gpiImM0123456789'.includes(f)) break;
      this.i++;
    }
    this.endOfCommand();
  }

  private transliterate(): void {
    const delim = this.s[this.i++];
    if (delim === undefined || delim === '\n' || delim === '\\') throw new NotUnderstood();
    this.replacement(delim);
    this.replacement(delim);
    this.endOfCommand();
  }
}
