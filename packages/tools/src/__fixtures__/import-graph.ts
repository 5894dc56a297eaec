// The import graph of a source tree, for the test that keeps tool folders free of cycles.
// TypeScript's own pre-processor reads the imports, so comments and strings never count.
// The walk, the keys and the cycle finder are core's (its test finds cycles among runtime imports).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import ts from 'typescript';
import { sources, toKey, type ImportGraph } from '../../../core/src/__fixtures__/import-graph.js';

export { cycles, type ImportGraph } from '../../../core/src/__fixtures__/import-graph.js';

/** Every non-test .ts module under root and the relative modules it imports (type-only imports too). */
export function importGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of sources(root)) {
    const deps = new Set<string>();
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      deps.add(toKey(root, resolve(dirname(file), fileName.replace(/\.js$/, '.ts'))));
    }
    graph.set(toKey(root, file), deps);
  }
  return graph;
}

/** The same graph with each module replaced by its top folder (`fs/read_file.ts` -> `fs`); files at the root stay themselves. */
export function folderGraph(graph: ImportGraph): ImportGraph {
  const folders: ImportGraph = new Map();
  const folderOf = (key: string) => key.split('/')[0];
  for (const [from, deps] of graph) {
    const out = folders.get(folderOf(from)) ?? new Set<string>();
    for (const to of deps) if (folderOf(to) !== folderOf(from)) out.add(folderOf(to));
    folders.set(folderOf(from), out);
  }
  return folders;
}
