// tree-sitter-bash through web-tree-sitter (WebAssembly: nothing native to build), loaded once,
// on first use.
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { Language, Parser } from 'web-tree-sitter';
import { useParser } from './parse.js';

let loading: Promise<void> | undefined;

/**
 * Compiles the parser's WebAssembly with V8's baseline compiler only. Left to itself, V8 soon
 * recompiles the hot parts with its optimizing compiler, and for this parser's huge lexer that
 * costs ~40 MB of peak memory (20 MB kept) while parsing no faster: a process running one shell
 * command peaked at 130 MB instead of 94 MB. The flag holds for modules compiled while it is set,
 * so it is set for our two modules and then put back (unless the process was started with it).
 */
async function withBaselineWasm<T>(compile: () => Promise<T>): Promise<T> {
  const own = !/--liftoff-only\b/.test(`${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`);
  if (own) setFlagsFromString('--liftoff-only');
  try {
    return await compile();
  } finally {
    if (own) setFlagsFromString('--no-liftoff-only');
  }
}

/**
 * Loads the parser once. It resolves to nothing, and parsing lives in parse.ts, on purpose: this
 * function is public, and a public type of ours that named web-tree-sitter's would make a
 * consumer's strict `tsc` need emscripten's types.
 */
export function loadBashParser(): Promise<void> {
  loading ??= withBaselineWasm(async () => {
    const require = createRequire(import.meta.url);
    await Parser.init();
    const language = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
    const parser = new Parser();
    parser.setLanguage(language);
    useParser(parser);
  });
  // A failed load may be retried on the next call.
  loading.catch(() => (loading = undefined));
  return loading;
}
