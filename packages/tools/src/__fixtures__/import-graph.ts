// The import graph of a source tree, for the test that keeps tool folders free of cycles.
// TypeScript's own pre-processor reads the imports, so comments and strings never count.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** Module (path relative to the root, `/`-separated) -> the modules it imports. */
export type ImportGraph = Map<string, Set<string>>;

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

/** Each group of nodes that import each other (directly or around a loop), as one path `a -> b -> a`. */
export function cycles(graph: ImportGraph): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next].join(' -> '));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return found;
}

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== '__fixtures__' && entry.name !== 'node_modules') yield* sources(path);
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) {
      yield path;
    }
  }
}

function toKey(root: string, file: string): string {
  return relative(root, file).split(sep).join('/');
}
