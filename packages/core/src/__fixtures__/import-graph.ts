// The runtime import graph of core's sources, for the test that keeps core free of import cycles.
// Only imports that survive compilation count: `import type`, `export type` and imports whose every
// name is a type are erased, so a cycle through them is no cycle at run time. Dynamic import() is
// lazy and does not count either.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** Module (path relative to the root, `/`-separated) -> the modules it loads when it loads. */
export type ImportGraph = Map<string, Set<string>>;

/** The relative module specifiers a source loads at run time. */
export function runtimeImports(fileName: string, text: string): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  for (const node of file.statements) {
    const from = (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier;
    if (!from || !ts.isStringLiteral(from) || !from.text.startsWith('.')) continue;
    if (ts.isImportDeclaration(node) ? importsValue(node) : exportsValue(node as ts.ExportDeclaration))
      found.push(from.text);
  }
  return found;
}

function importsValue(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return true; // `import './x.js'`: run for its effects
  if (clause.isTypeOnly) return false;
  if (clause.name) return true;
  const bindings = clause.namedBindings;
  if (!bindings) return false;
  if (ts.isNamespaceImport(bindings)) return true;
  return bindings.elements.some((e) => !e.isTypeOnly);
}

function exportsValue(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return false;
  const clause = node.exportClause;
  if (!clause || ts.isNamespaceExport(clause)) return true; // `export * from`
  return clause.elements.some((e) => !e.isTypeOnly);
}

/** Every non-test .ts module under root (fixtures left out) and the modules it loads at run time. */
export function runtimeGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of sources(root)) {
    const deps = runtimeImports(file, readFileSync(file, 'utf8')).map((spec) =>
      toKey(root, resolve(dirname(file), spec.replace(/\.js$/, '.ts'))),
    );
    graph.set(toKey(root, file), new Set(deps));
  }
  return graph;
}

/** Each loop of modules that load each other, as one path `a -> b -> a`. */
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

/** Every non-test .ts file below dir, fixtures and node_modules left out. */
export function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== '__fixtures__' && entry.name !== 'node_modules') yield* sources(path);
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) {
      yield path;
    }
  }
}

/** A file as a graph key: its path relative to root, `/`-separated. */
export function toKey(root: string, file: string): string {
  return relative(root, file).split(sep).join('/');
}
