import { describe, expect, it } from 'vitest';
import { orphans } from './orphan-doc-comments.mjs';

describe('doc comments that document nothing', () => {
  it('passes a doc comment directly above its declaration, members and JSX included', () => {
    const text = [
      '/** A. */',
      'export const a = 1;',
      'interface B {',
      '  /** Its c. */',
      '  c: string;',
      '}',
      '/** D. */',
      'const d = () => <p>{/** not a doc */ a}</p>;',
    ].join('\n');
    expect(orphans(text, true)).toEqual([]);
  });

  it('finds one followed by a blank line, by another comment, by the end of a block or of the file', () => {
    const text = [
      '/** Left behind. */',
      '',
      'const a = 1;',
      '/** Twice. */',
      '/** The real one. */',
      'const b = 2;',
      'function f() {',
      '  return a + b;',
      '  /** At the end. */',
      '}',
      '/** Last. */',
    ].join('\n');
    expect(orphans(text, false)).toEqual([
      [1, 'a blank line follows it'],
      [4, 'another comment follows it'],
      [9, 'it ends a block'],
      [11, 'it ends the file'],
    ]);
  });
});
