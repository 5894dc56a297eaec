// Parsing with the bash parser once loadBashParser() (parser.ts) has loaded it. Apart from the
// loader because this file's types name web-tree-sitter's, and the loader is public.
import type { Parser, Tree } from 'web-tree-sitter';

let ready: Parser | undefined;

export function useParser(parser: Parser): void {
  ready = parser;
}

/**
 * Parses with the loaded parser; the caller must `delete()` the tree (it lives in wasm memory).
 * `cancel` is polled while parsing: when it says true the parse stops and this returns undefined.
 */
export function parseLoaded(script: string, cancel?: () => boolean): Tree | undefined {
  if (!ready) throw new Error('the bash parser is not loaded yet; await loadBashParser() first');
  // A true from the callback cancels the parse (its type says void).
  const tree = ready.parse(script, null, cancel ? { progressCallback: cancel as () => void } : undefined);
  if (!tree && cancel?.()) {
    // A cancelled parse would otherwise resume on the next call, with the next script's text.
    ready.reset();
    return undefined;
  }
  if (!tree) throw new Error('the bash parser returned no tree');
  return tree;
}
