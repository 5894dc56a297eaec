// Parsing with the bash parser once loadBashParser() (parser.ts) has loaded it. Apart from the
// loader because this file's types name web-tree-sitter's, and the loader is public.
import type { Parser, Tree } from 'web-tree-sitter';

let ready: Parser | undefined;

export function useParser(parser: Parser): void {
  ready = parser;
}

/** Parses with the loaded parser; the caller must `delete()` the tree (it lives in wasm memory). */
export function parseLoaded(script: string): Tree {
  if (!ready) throw new Error('the bash parser is not loaded yet; await loadBashParser() first');
  const tree = ready.parse(script);
  if (!tree) throw new Error('the bash parser returned no tree');
  return tree;
}
