// The suffix test for `**/*.ext` patterns answers as picomatch does (dot: true) on every path a walk yields.
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { pathMatcher } from './glob.js';

const PATHS = [
  'a.ts',
  '.ts',
  '.hidden.ts',
  'src/a.ts',
  'src/.hidden/a.ts',
  'src/a.ts.bak',
  'src/a.tsx',
  'src/a.d.ts',
  'a.TS',
  'ts',
  'src/ts',
  'deep/er/still/x-y_z.ts',
  'src/a.spec.ts',
];

describe('glob path matching', () => {
  it.each(['**/*.ts', '**/*.d.ts', '**/*.spec.ts', '**/*.x-y'])('%s: the suffix test agrees with picomatch', (p) => {
    const re = picomatch.makeRe(p, { dot: true });
    const fast = pathMatcher(p);
    for (const path of PATHS) expect([path, fast(path)]).toEqual([path, re.test(path)]);
  });

  it('other patterns go to picomatch', () => {
    const m = pathMatcher('src/**/*.{ts,js}');
    expect(['src/a.ts', 'src/b/c.js', 'a.ts', 'src/a.tsx'].map(m)).toEqual([true, true, false, false]);
  });
});
