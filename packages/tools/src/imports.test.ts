import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, folderGraph, importGraph, type ImportGraph } from './__fixtures__/import-graph.js';

const src = fileURLToPath(new URL('.', import.meta.url));

describe('imports between tool folders', () => {
  it('form no cycle: shared services (walk, workspace, text, process, errno) never import a tool folder back', () => {
    const folders = folderGraph(importGraph(src));
    expect(folders.get('fs')).toContain('walk');
    expect(folders.get('search')).toContain('walk');
    expect(cycles(folders)).toEqual([]);
  });

  it('reports a cycle such as the old fs <-> search one with its path', () => {
    const graph: ImportGraph = new Map([
      ['fs/list_directory.ts', new Set(['search/filters.ts', 'text/amounts.ts'])],
      ['search/glob.ts', new Set(['fs/common.ts'])],
      ['search/filters.ts', new Set<string>()],
      ['fs/common.ts', new Set<string>()],
      ['text/amounts.ts', new Set<string>()],
    ]);
    expect(cycles(folderGraph(graph))).toEqual(['fs -> search -> fs']);
    expect(cycles(graph)).toEqual([]);
  });
});
