// What a person reads before approving is exactly what runs: text from a call (a command, a file
// name, a diff, a reason, a tool's description) is shown with every character that could restyle,
// move the cursor, hide or reorder text made visible. Pure and browser-safe (the console and the
// terminal share it); clients/emacs/toolbelt.el has the same table (toolbelt--visible).

/**
 * The characters shown escaped, as code point ranges: the C0 controls but tab and newline
 * (ANSI escapes, carriage return, backspace), DEL, the C1 controls, and the invisible or
 * reordering format characters — soft hyphen, combining grapheme joiner, Arabic letter mark,
 * Hangul fillers, Khmer invisible vowels, Mongolian selectors, zero-width space/joiners and the
 * bidi marks, line and paragraph separators, the bidi embeddings, overrides and isolates, word
 * joiner and invisible operators, variation selectors, BOM, interlinear annotation, musical
 * format controls, tag characters — and lone surrogates.
 */
export const ESCAPED_RANGES: readonly (readonly [number, number])[] = [
  [0x00, 0x08],
  [0x0b, 0x1f],
  [0x7f, 0x9f],
  [0xad, 0xad],
  [0x34f, 0x34f],
  [0x61c, 0x61c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xd800, 0xdfff],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff9, 0xfffb],
  [0x1d173, 0x1d17a],
  [0xe0000, 0xe007f],
  [0xe0100, 0xe01ef],
];

const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
const cls = ESCAPED_RANGES.map(([a, b]) => (a === b ? `\\u{${hex(a)}}` : `\\u{${hex(a)}}-\\u{${hex(b)}}`)).join('');
const ESCAPED = new RegExp(`[${cls}]`, 'gu');
const ANY_ESCAPED = new RegExp(`[${cls}]`, 'u');

const NAMED: Record<number, string> = { 0x07: '\\a', 0x08: '\\b', 0x0b: '\\v', 0x0c: '\\f', 0x0d: '\\r', 0x1b: '\\e' };

/**
 * How one escaped character is shown: `\e` (escape), `\r`, `\b`, `\a`, `\f`, `\v`; `\xNN` for
 * the other C0 controls and DEL; `<U+XXXX>` for the rest (C1 controls, bidi and invisible format
 * characters, lone surrogates).
 */
export function escapeChar(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (NAMED[cp]) return NAMED[cp];
  if (cp <= 0x7f) return `\\x${cp.toString(16).padStart(2, '0')}`;
  return `<U+${hex(cp)}>`;
}

/**
 * `text` as it is safe to show a person: newlines and tabs kept, every control, bidi and
 * invisible format character replaced by a visible escape (see escapeChar), so nothing in it can
 * restyle the terminal, return to the line start and overwrite it, or reorder what is read.
 * Only for display: what runs and what is stored stay the original text. `mark` wraps each
 * escape (a front end that styles them, so they stand apart from the text around them).
 */
export function displayText(text: string, mark?: (escape: string) => string): string {
  return String(text).replace(ESCAPED, (ch) => (mark ? mark(escapeChar(ch)) : escapeChar(ch)));
}

/** True when `text` holds something displayText would escape. */
export function hasHiddenText(text: string): boolean {
  return ANY_ESCAPED.test(String(text));
}
