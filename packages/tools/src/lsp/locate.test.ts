import { describe, expect, it } from 'vitest';
import { toPosition } from './locate.js';

const text = 'const a = 1;\r\nconst total = sum(a, subtotal);\n  return total;';

describe('model positions to LSP positions', () => {
  it('turns 1-based line and column into 0-based ones', () => {
    expect(toPosition(text, { path: 'f.ts', line: 2, column: 7 })).toEqual({ line: 1, character: 6 });
  });

  it('finds a symbol as a whole identifier before a mere substring', () => {
    expect(toPosition(text, { path: 'f.ts', line: 2, symbol: 'total' })).toEqual({ line: 1, character: 6 });
    expect(toPosition(text, { path: 'f.ts', line: 2, symbol: 'a' })).toEqual({ line: 1, character: 18 });
    expect(toPosition(text, { path: 'f.ts', line: 2, symbol: 'ubtot' })).toEqual({ line: 1, character: 22 });
  });

  it('allows the column just past the end of a line and refuses beyond it', () => {
    expect(toPosition(text, { path: 'f.ts', line: 1, column: 13 })).toEqual({ line: 0, character: 12 });
    expect(() => toPosition(text, { path: 'f.ts', line: 1, column: 14 })).toThrow(
      'column 14 is past the end of line 1 of f.ts (12 characters)',
    );
    expect(() => toPosition(text, { path: 'f.ts', line: 4, column: 1 })).toThrow(
      'line 4 is past the end of f.ts (3 lines)',
    );
  });
});
