import { describe, expect, it } from 'vitest';
import { MAX_INPUT_CHARS, MAX_INPUT_DEPTH, shapeProblem } from './input-shape.js';

/** `{"a":{"a":...1}}` nested `depth` levels, as JSON.parse makes it (no recursion here either). */
function nested(depth: number): unknown {
  return JSON.parse('{"a":'.repeat(depth) + '1' + '}'.repeat(depth));
}

describe('shapeProblem', () => {
  it('admits ordinary values, and a value exactly at the depth limit', () => {
    expect(shapeProblem({ path: 'README.md', lines: [1, 2], opts: { deep: { er: [null, true] } } })).toBeUndefined();
    expect(shapeProblem(nested(MAX_INPUT_DEPTH))).toBeUndefined();
    expect(shapeProblem('plain')).toBeUndefined();
    expect(shapeProblem(7)).toBeUndefined();
  });

  it('refuses one level more, and 100,000 levels without overflowing the stack', () => {
    expect(shapeProblem(nested(MAX_INPUT_DEPTH + 1))).toBe(
      `the input nests objects and arrays more than ${MAX_INPUT_DEPTH} levels deep; send a flatter value`,
    );
    expect(shapeProblem(nested(100_000), 'the body')).toMatch(/^the body nests objects and arrays more than/);
    expect(shapeProblem(JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)))).toMatch(/levels deep/);
  });

  it('refuses a value larger than the limit, whether in one string, many keys or a long array', () => {
    const big = 'x'.repeat(MAX_INPUT_CHARS);
    expect(shapeProblem({ text: big })).toBe(
      'the input is larger than 4,194,304 characters; send less (e.g. a path instead of file contents)',
    );
    expect(shapeProblem(big + 'x')).toMatch(/larger than/);
    expect(shapeProblem(big)).toBeUndefined();
    expect(shapeProblem(Object.fromEntries(Array.from({ length: 400_000 }, (_, i) => [`key${i}`, i])))).toMatch(
      /larger than/,
    );
    expect(shapeProblem(new Array(1_000_000).fill(0))).toMatch(/larger than/);
  });

  it('takes other limits', () => {
    expect(shapeProblem({ a: [1] }, 'x', { maxDepth: 1 })).toBe(
      'x nests objects and arrays more than 1 levels deep; send a flatter value',
    );
    expect(shapeProblem({ a: 'four' }, 'x', { maxChars: 10 })).toMatch(/^x is larger than 10 characters/);
  });
});
