// Core loads without a cycle: no module of core loads, directly or around a loop, one that loads it
// back. Type-only imports are erased at build time and may point anywhere.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, runtimeGraph, runtimeImports, type ImportGraph } from './__fixtures__/import-graph.js';

const src = fileURLToPath(new URL('.', import.meta.url));

describe('imports inside core', () => {
  it('form no runtime cycle', () => {
    const graph = runtimeGraph(src);
    expect(graph.get('registry.ts')).toContain('groups.ts');
    expect(graph.get('groups.ts')).not.toContain('registry.ts');
    expect(cycles(graph)).toEqual([]);
  });

  it('counts imports that load a module and leaves out the ones erased at build time', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      "import { type C, type D } from './c.js';",
      "import { type E, e } from './e.js';",
      "import * as f from './f.js';",
      "import './g.js';",
      "export * from './h.js';",
      "export type * from './i.js';",
      "export { type J } from './j.js';",
      "export { k } from './k.js';",
      "import { z } from 'zod';",
      "const lazy = () => import('./l.js');",
    ].join('\n');
    expect(runtimeImports('x.ts', text)).toEqual(['./a.js', './e.js', './f.js', './g.js', './h.js', './k.js']);
  });

  it('reports a cycle such as the old registry <-> groups one with its path', () => {
    const graph: ImportGraph = new Map([
      ['registry.ts', new Set(['groups.ts', 'tool.ts'])],
      ['groups.ts', new Set(['registry.ts'])],
      ['tool.ts', new Set<string>()],
    ]);
    expect(cycles(graph)).toEqual(['groups.ts -> registry.ts -> groups.ts']);
  });
});
