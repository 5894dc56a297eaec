import { describe, expect, it } from 'vitest';
import { applyEdits, EditError, explainMiss, lineAt } from './replace.js';

describe('applyEdits', () => {
  it('replaces a unique exact match', () => {
    expect(applyEdits('a\nfoo()\nb\n', [{ oldString: 'foo()', newString: 'bar()' }]).text).toBe('a\nbar()\nb\n');
  });

  it('refuses an ambiguous match and names the lines', () => {
    const err = (() => {
      try {
        applyEdits('x=1\ny\nx=1\n', [{ oldString: 'x=1', newString: 'x=2' }]);
      } catch (e) {
        return e as EditError;
      }
    })();
    expect(err).toBeInstanceOf(EditError);
    expect(err!.message).toContain('occurs 2 times (lines 1, 3)');
    expect(err!.message).toContain('replace_all');
  });

  it('replaces every occurrence with replaceAll and counts them', () => {
    const r = applyEdits('x=1\ny\nx=1\n', [{ oldString: 'x=1', newString: 'x=2', replaceAll: true }]);
    expect(r.text).toBe('x=2\ny\nx=2\n');
    expect(r.counts).toEqual([2]);
  });

  it('applies several edits in order, each on the result of the one before', () => {
    const r = applyEdits('one two', [
      { oldString: 'one', newString: 'three' },
      { oldString: 'three two', newString: 'done' },
    ]);
    expect(r.text).toBe('done');
  });

  it('fails the whole batch when a later edit does not match, naming it', () => {
    expect(() =>
      applyEdits('one two', [
        { oldString: 'one', newString: '1' },
        { oldString: 'missing', newString: 'x' },
      ]),
    ).toThrow(/edit 2 of 2: old_string was not found/);
  });

  it('treats $ patterns in the replacement literally', () => {
    expect(applyEdits('a', [{ oldString: 'a', newString: "$&$'$1" }]).text).toBe("$&$'$1");
  });

  it('refuses an empty old_string and a no-op edit', () => {
    expect(() => applyEdits('a', [{ oldString: '', newString: 'b' }])).toThrow(/old_string is empty/);
    expect(() => applyEdits('a', [{ oldString: 'a', newString: 'a' }])).toThrow(/the same/);
  });
});

describe('explainMiss', () => {
  it('points at lines that match when whitespace is ignored', () => {
    const text = 'function f() {\n\treturn 1;\n}\n';
    expect(explainMiss(text, '  return 1;\n}')).toContain('lines 2-3 match if whitespace is ignored');
  });

  it('names the nearest lines and the first line that differs', () => {
    const text = ['import x;', '', 'function f() {', '  const a = 1;', '  return a + 1;', '}', ''].join('\n');
    const why = explainMiss(text, 'function f() {\n  const a = 1;\n  return a + 2;\n}');
    expect(why).toBe(
      'nearest is lines 3-6, first differing at line 5: "  return a + 1;". Read those lines again and copy the exact text.',
    );
  });

  it('says when no line of old_string is in the file', () => {
    expect(explainMiss('a\nb\n', 'c\nd')).toContain('no line of it is in the file');
  });

  it('notices read_file line-number prefixes', () => {
    expect(explainMiss('a\n', '     1\ta')).toContain('line numbers');
    expect(explainMiss('a\n', '1\ta')).toContain('line numbers');
  });
});

describe('lineAt', () => {
  it('counts lines up to an offset', () => {
    expect(lineAt('a\nb\nc', 0)).toBe(1);
    expect(lineAt('a\nb\nc', 4)).toBe(3);
  });
});
