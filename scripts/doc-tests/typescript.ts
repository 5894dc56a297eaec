// TS and JS blocks: compiled together by the TypeScript compiler in strict mode against the built
// packages (as a user's project would import them), then run with node in the temp workspace.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import ts from 'typescript';
import type { DocBlock } from './blocks.js';
import { fillPaths, type DocWorkspace } from './workspace.js';

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2023.d.ts'],
  types: ['node'],
  strict: true,
  skipLibCheck: true,
  esModuleInterop: true,
  allowJs: true,
  checkJs: true,
};

/** "Cannot find name", with and without a suggestion, and a shorthand property with nothing in scope. */
const UNDEFINED_NAME = new Set([2304, 2552, 18004]);

export interface Compiled {
  /** The compile errors of each block, by id, one a line. */
  errors: Map<string, string>;
  /** The emitted JavaScript of each block, by id. */
  output: Map<string, string>;
}

function fileOf(block: DocBlock, index: number): string {
  return `block${index}.${block.lang === 'js' || block.lang === 'javascript' ? 'mjs' : 'mts'}`;
}

/** A fragment may use the names its marker gives; any other undefined name is an error. */
function allowed(d: ts.Diagnostic, given: string[]): boolean {
  if (!UNDEFINED_NAME.has(d.code)) return false;
  const name = /'([^']+)'/.exec(ts.flattenDiagnosticMessageText(d.messageText, '\n'))?.[1];
  return name !== undefined && given.includes(name);
}

export function compileBlocks(
  blocks: DocBlock[],
  w: DocWorkspace,
  code: (b: DocBlock) => string = (b) => b.code,
): Compiled {
  const files = new Map<string, DocBlock>();
  const [src, out] = [join(w.code, 'src'), join(w.code, 'out')];
  mkdirSync(src, { recursive: true });
  blocks.forEach((b, i) => {
    const file = join(src, fileOf(b, i));
    writeFileSync(file, `${fillPaths(code(b), w)}\nexport {};\n`);
    files.set(file, b);
  });
  const program = ts.createProgram([...files.keys()], { ...OPTIONS, outDir: out, rootDir: src });
  const errors = new Map<string, string>();
  const all = [
    ...program.getSyntacticDiagnostics(),
    ...program.getSemanticDiagnostics(),
    ...program.getGlobalDiagnostics(),
  ];
  for (const d of all) {
    const block = d.file ? files.get(d.file.fileName) : undefined;
    if (!block || allowed(d, block.marker?.given ?? [])) continue;
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
    const text = `line ${line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    errors.set(block.id, errors.has(block.id) ? `${errors.get(block.id)}\n${text}` : text);
  }
  const output = new Map<string, string>();
  program.emit(undefined, (name, text) => {
    const source = [...files.keys()].find((f) => basename(f).replace(/\.m[tj]s$/, '.mjs') === basename(name));
    if (!source) return;
    mkdirSync(out, { recursive: true });
    writeFileSync(name, text);
    output.set(files.get(source)!.id, name);
  });
  return { errors, output };
}

export function runCompiled(
  file: string,
  w: DocWorkspace,
  env: NodeJS.ProcessEnv = {},
): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [file], {
    cwd: w.ws,
    env: { ...w.env, ...env },
    encoding: 'utf8',
    timeout: 30_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { status: r.status, stdout: r.stdout, stderr: `${r.stderr}${r.error ? `\n${r.error.message}` : ''}` };
}
