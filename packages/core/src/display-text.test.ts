import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  describeRemember,
  destructiveWarning,
  displayText,
  ESCAPED_RANGES,
  hasHiddenText,
  type ApprovalRequest,
} from './approval.js';

const inRanges = (cp: number) => ESCAPED_RANGES.some(([a, b]) => cp >= a && cp <= b);

describe('displayText', () => {
  it('shows a carriage return, ANSI and OSC escapes and backspaces instead of obeying them', () => {
    expect(displayText('rm -rf ~ \r echo hello')).toBe('rm -rf ~ \\r echo hello');
    expect(displayText('ls\x1b[2K\x1b[1A\x1b[8mhidden\x1b[0m')).toBe('ls\\e[2K\\e[1A\\e[8mhidden\\e[0m');
    expect(displayText('\x1b]8;;http://x\x07link\x1b]8;;\x07')).toBe('\\e]8;;http://x\\alink\\e]8;;\\a');
    expect(displayText('safe\b\b\b\bevil\x00\x7f\x9b')).toBe('safe\\b\\b\\b\\bevil\\x00\\x7f<U+009B>');
  });

  it('shows bidi overrides, isolates, marks and zero-width characters by code point', () => {
    expect(displayText('access\u202e\u2066// check\u2069\u2066')).toBe(
      'access<U+202E><U+2066>// check<U+2069><U+2066>',
    );
    expect(displayText('a\u200b\u200c\u200d\u200e\u200f\u2060\ufeffb')).toBe(
      'a<U+200B><U+200C><U+200D><U+200E><U+200F><U+2060><U+FEFF>b',
    );
    // Tag characters (invisible "ASCII smuggling") and a lone surrogate.
    expect(displayText('x\u{e0041}\ud800')).toBe('x<U+E0041><U+D800>');
  });

  it('keeps newlines, tabs and ordinary text (accents, CJK, emoji, RTL letters, backslashes) as they are', () => {
    const plain = 'line 1\n\tline 2 — wörld 世界 🚀 שלום grep "a\\.b" <U+202E>';
    expect(displayText(plain)).toBe(plain);
    expect(hasHiddenText(plain)).toBe(false);
    expect(hasHiddenText('a\u202eb')).toBe(true);
  });

  it('is idempotent, and its output holds nothing it would escape, for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const shown = displayText(s);
        expect(displayText(shown)).toBe(shown);
        expect(hasHiddenText(shown)).toBe(false);
        for (const ch of shown) expect(inRanges(ch.codePointAt(0)!)).toBe(false);
      }),
    );
  });

  it('marks each escape when asked (a front end that styles them)', () => {
    expect(displayText('a\rb', (e) => `[${e}]`)).toBe('a[\\r]b');
  });

  it('the approval helpers show what "always" remembers and what a call destroys escaped', () => {
    expect(describeRemember({ kind: 'exact', tool: 'shell_exec', command: 'rm -rf ~ \r echo hi' })).toBe(
      'exactly `rm -rf ~ \\r echo hi`',
    );
    const r = {
      tool: 'shell_exec',
      effect: 'destructive',
      preview: { kind: 'command', command: 'x', cwd: '.', classification: 'destructive: rm \u202e~' },
    } as ApprovalRequest;
    expect(destructiveWarning(r)).toBe('This call is destructive: rm <U+202E>~');
  });
});
