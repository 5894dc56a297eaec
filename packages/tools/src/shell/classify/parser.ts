// tree-sitter-bash through web-tree-sitter (WebAssembly: nothing native to build), loaded once,
// on first use.
import { createRequire } from 'node:module';
import { Language, Parser, type Tree } from 'web-tree-sitter';

let loading: Promise<Parser> | undefined;
let ready: Parser | undefined;

export function loadBashParser(): Promise<Parser> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    await Parser.init();
    const language = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
    const parser = new Parser();
    parser.setLanguage(language);
    ready = parser;
    return parser;
  })();
  // A failed load may be retried on the next call.
  loading.catch(() => (loading = undefined));
  return loading;
}

/** Parses with the loaded parser; the caller must `delete()` the tree (it lives in wasm memory). */
export function parseLoaded(script: string): Tree {
  if (!ready) throw new Error('the bash parser is not loaded yet; await loadBashParser() first');
  const tree = ready.parse(script);
  if (!tree) throw new Error('the bash parser returned no tree');
  return tree;
}
