import { applyPatch, createTwoFilesPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffStat, MAX_DIFF_INPUT, unifiedDiff } from './diff.js';

const lines = fc.array(fc.constantFrom('a', 'b', 'c', '', 'd e'), { maxLength: 30 }).map((l) => l.join('\n'));

describe('unifiedDiff', () => {
  it('diffs only the changed region, and the patch still turns the old text into the new', () => {
    fc.assert(
      fc.property(lines, lines, fc.boolean(), (before, after, nl) => {
        const [x, y] = nl ? [`${before}\n`, `${after}\n`] : [before, after];
        const patch = unifiedDiff('f', x, y);
        expect(applyPatch(x, patch)).toBe(y);
      }),
      { numRuns: 500 },
    );
  });

  it('numbers hunks as a diff of the whole file does', () => {
    const before = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const after = before.replace('line 50\n', 'fifty\n');
    const whole = createTwoFilesPatch('a/f', 'b/f', before, after, undefined, undefined, {
      context: 3,
      headerOptions: { includeIndex: false, includeUnderline: false, includeFileHeaders: true },
    });
    expect(unifiedDiff('f', before, after)).toBe(whole);
  });

  it('sums up a change too large to diff line by line', () => {
    const before = 'foo\n'.repeat(MAX_DIFF_INPUT / 4);
    const after = before.replaceAll('foo', 'bar');
    const d = unifiedDiff('big', before, after);
    expect(d).toContain('too large to show line by line');
    expect(diffStat(d)).toEqual({ added: MAX_DIFF_INPUT / 4, removed: MAX_DIFF_INPUT / 4 });
  });
});
