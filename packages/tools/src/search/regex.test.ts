import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findRg } from './engine.js';
import { compilePattern, PatternError } from './regex.js';

const LINES = [
  'foo bar',
  'Foo',
  'FOO',
  'foobar',
  'bar foo',
  'x.y',
  'x-y',
  'a+b',
  'tab\there',
  '  indented',
  'café',
  'naïve',
  'Straße',
  'ſ long s',
  '\u212a kelvin',
  'number 42',
  '\u0663 arabic digit',
  'under_score',
  'end$',
  '^start',
  '(paren)',
  '[bracket]',
  '{brace}',
  'back\\slash',
  'slash/path',
  'emoji 😀',
  'nbsp\u00a0here',
  'cr\rinside',
  'trailing space ',
  '',
  '#hash',
  'a&&b',
  'tilde~',
  'q?',
  'star*',
  'pipe|',
  'ÅÄÖ',
  'ǅ title',
  'feff\ufeffbom',
  'αβγ greek',
];

// [pattern, case-insensitive?]
const PATTERNS: [string, boolean?][] = [
  ['foo'],
  ['Foo', true],
  ['^foo'],
  ['foo$'],
  ['\\bfoo\\b'],
  ['\\Bar'],
  ['x.y'],
  ['x\\.y'],
  ['\\d+'],
  ['\\D'],
  ['\\w+_\\w+'],
  ['\\W'],
  ['\\s'],
  ['\\S+$'],
  ['[a-c]'],
  ['[^a-z ]'],
  ['[[:digit:]]'],
  ['[[:punct:]]'],
  ['caf.'],
  ['caf\\u00e9'],
  ['\\x41'],
  ['^\\p{L}+$'],
  ['\\P{L}'],
  ['\\p{Script=Greek}'],
  ['a+b'],
  ['a\\+b'],
  ['(foo|bar)+'],
  ['(?:ab)'],
  ['(?<n>o)o'],
  ['o{2}'],
  ['o{1,}'],
  ['{brace}'],
  ['\\{brace\\}'],
  ['[\\]]'],
  ['[\\[]'],
  ['a&&b'],
  ['[&~-]'],
  ['\\#'],
  ['\\/'],
  ['\\-'],
  ['end\\$'],
  ['😀'],
  ['.'],
  ['^$'],
  ['^.{3}$'],
  ['(?i)straße'],
  ['k', true],
  ['s', true],
  ['\\t'],
  ['[\\s\\S]'],
  ['[\\d\\W]'],
  ['ǆ', true],
  ['cr.inside'],
  ['[^\\s]+ [a-z]+$'],
  ['\\bé'],
  ['é\\b'],
  ['^[^a-zA-Z]*$'],
  ['q\\?'],
  ['\\u{1F600}'],
  ['(a|)b'],
  ['x*'],
];

const rg = findRg();
const dir = mkdtempSync(join(tmpdir(), 'tb-regex-'));
const file = join(dir, 'lines.txt');
writeFileSync(file, LINES.join('\n') + '\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function jsLines(pattern: string, ci: boolean): number[] {
  const c = compilePattern(pattern, { caseInsensitive: ci });
  return LINES.flatMap((l, i) => (c.line.test(l) ? [i + 1] : []));
}

function rgLines(pattern: string, ci: boolean): number[] {
  const c = compilePattern(pattern, { caseInsensitive: ci });
  const r = spawnSync(rg!, ['--no-config', '-n', '--no-filename', '-e', c.rust!, file], { encoding: 'utf8' });
  if (r.status === 2) throw new Error(`rg rejected ${JSON.stringify(c.rust)}: ${r.stderr}`);
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => Number(l.split(':')[0]));
}

describe('compilePattern', () => {
  it.each(PATTERNS)('matches the same lines in both dialects: %s', (pattern, ci = false) => {
    const js = jsLines(pattern, ci);
    if (rg) expect(rgLines(pattern, ci)).toEqual(js);
    // The JS side must at least be a real, non-trivial decision for most patterns.
    expect(js.length).toBeLessThanOrEqual(LINES.length);
  });

  it('pins ASCII meaning for \\d and \\w, and JavaScript whitespace for \\s', () => {
    expect(compilePattern('\\d').line.test('\u0663')).toBe(false);
    expect(compilePattern('^\\w+$').line.test('café')).toBe(false);
    expect(compilePattern('\\s').line.test('\ufeff')).toBe(true);
    expect(compilePattern('a.b').line.test('a\rb')).toBe(true);
  });

  it('marks look-around and backreferences as JS-only', () => {
    expect(compilePattern('foo(?=bar)').jsOnly).toBe('look-around');
    expect(compilePattern('(a)\\1').jsOnly).toBe('backreferences');
    expect(compilePattern('(a)\\1').rust).toBeUndefined();
    expect(compilePattern('foo(?=bar)').prefilter).toBeUndefined();
  });

  it('knows which patterns can match a newline', () => {
    expect(compilePattern('a\\sb').canMatchNewline).toBe(true);
    expect(compilePattern('[^x]').canMatchNewline).toBe(true);
    expect(compilePattern('a.b').canMatchNewline).toBe(false);
    expect(compilePattern('(?s)a.b').canMatchNewline).toBe(true);
    expect(compilePattern('a\\nb', { multiline: true }).canMatchNewline).toBe(true);
  });

  it('finds strings every match must contain, rarest first, when it can tell', () => {
    expect(compilePattern('function\\s+\\w+Sync\\(').literals).toEqual({ any: ['Sync('], all: ['function'] });
    expect(compilePattern('colou?r').literals).toEqual({ any: ['colo'], all: ['r'] });
    expect(compilePattern('foo|barbaz').literals).toEqual({ any: ['foo', 'barbaz'], all: [] });
    expect(compilePattern('a.c', { literal: true }).literals).toEqual({ any: ['a.c'], all: [] });
    expect(compilePattern('(foo)?bar').literals).toEqual({ any: ['bar'], all: [] });
    expect(compilePattern('foo|\\d+').literals).toBeUndefined();
    expect(compilePattern('foo', { caseInsensitive: true }).literals).toBeUndefined();
    expect(compilePattern('(?i)foo').literals).toBeUndefined();
    for (const [pattern, line] of [
      ['colou?r', 'color'],
      ['x(ab)*y', 'xy'],
      ['a+b', 'aab'],
      ['q{0,2}rs', 'rs'],
      ['get\\w+Sync\\(', 'getFooSync('],
    ]) {
      const c = compilePattern(pattern);
      expect(c.line.test(line)).toBe(true);
      const l = c.literals;
      if (l) expect(l.any.some((n) => line.includes(n)) && l.all.every((n) => line.includes(n)), pattern).toBe(true);
    }
  });

  it('escapes everything in literal mode', () => {
    const c = compilePattern('a.b(c)*', { literal: true });
    expect(c.line.test('a.b(c)*')).toBe(true);
    expect(c.line.test('axb(c)')).toBe(false);
  });

  it.each([
    ['(', 'not closed'],
    [')', 'without a matching'],
    ['[a', 'not closed'],
    ['a**', 'nothing to repeat'],
    ['*a', 'nothing to repeat'],
    ['\\q', 'unknown escape'],
    ['a{3,1}', 'wrong way round'],
    ['a\\nb', 'multiline: true'],
    ['\\p{Nope}', 'unknown Unicode property'],
    ['a(?x)b', 'only supported at the very start'],
    ['', 'empty'],
  ])('rejects %j with a message that says what to fix', (pattern, says) => {
    expect(() => compilePattern(pattern)).toThrow(PatternError);
    expect(() => compilePattern(pattern)).toThrow(says);
  });
});
