// Which language server handles which files: typescript-language-server out of the box,
// more (or a replacement) from the `lsp` section of toolbelt.config.json.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import type { LspConfigEntry } from './section.js';

export interface ServerSpec {
  name: string;
  command: string;
  args: string[];
  /** Lower-case extensions with the dot: ".ts". */
  extensions: string[];
  /** languageId sent in didOpen, per extension. */
  languageIds: Record<string, string>;
  initializationOptions?: unknown;
}

export type { LspConfigEntry };

const TS_LANGUAGES: Record<string, string> = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'typescriptreact',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascriptreact',
};

let tsCli: string | undefined;
let tsServer: string | undefined;

// Both packages are toolbelt's own dependencies, resolved from this file (toolbelt's
// installation), never from the project: a workspace's node_modules is on that path only when
// toolbelt itself is installed inside the workspace.

/** typescript-language-server's entry point, found the way Node would find the package. */
export function typescriptLanguageServerBin(): string {
  if (!tsCli) {
    const require = createRequire(import.meta.url);
    const pkgPath = require.resolve('typescript-language-server/package.json');
    const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { bin: string | Record<string, string> };
    const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin['typescript-language-server'];
    tsCli = join(dirname(pkgPath), bin);
  }
  return tsCli;
}

/**
 * toolbelt's own tsserver. typescript-language-server otherwise prefers the project's
 * node_modules/typescript, which is code the workspace wrote; and it falls back to that one too
 * when the path given does not exist, so a missing file is an error here.
 */
export function ownTsserver(): string {
  if (!tsServer) {
    const path = createRequire(import.meta.url).resolve('typescript/lib/tsserver.js');
    if (!existsSync(path)) throw new Error(`toolbelt's own typescript has no ${path}; reinstall toolbelt`);
    tsServer = path;
  }
  return tsServer;
}

function typescriptSpec(): ServerSpec {
  return {
    name: 'typescript',
    command: process.execPath,
    // Resolved when the server first starts, so a missing package only fails the LSP tools.
    get args() {
      return [typescriptLanguageServerBin(), '--stdio'];
    },
    extensions: Object.keys(TS_LANGUAGES),
    languageIds: TS_LANGUAGES,
    get initializationOptions() {
      return {
        // A second tsserver for syntax keeps editors responsive during project load; an agent waits
        // for the project anyway, and one process starts markedly faster on a busy machine.
        tsserver: { useSyntaxServer: 'never', path: ownTsserver() },
        // Typings acquisition runs npm to fetch @types packages: no network in the sandbox, and no reason to.
        disableAutomaticTypingAcquisition: true,
      };
    },
  };
}

const dotted = (ext: string) => (ext.startsWith('.') ? ext : `.${ext}`).toLowerCase();

/** Config entries first (a "typescript" entry replaces the built-in one), then the built-in server. */
export function serverSpecs(config: Record<string, LspConfigEntry> | undefined): ServerSpec[] {
  const specs: ServerSpec[] = [];
  for (const [name, entry] of Object.entries(config ?? {})) {
    const extensions = entry.extensions.map(dotted);
    const languageIds = Object.fromEntries(
      extensions.map((e) => [e, entry.languageId ?? TS_LANGUAGES[e] ?? e.slice(1)]),
    );
    specs.push({ name, command: entry.command, args: entry.args ?? [], extensions, languageIds });
  }
  if (!specs.some((s) => s.name === 'typescript')) specs.push(typescriptSpec());
  return specs;
}

export function specFor(specs: readonly ServerSpec[], path: string): ServerSpec | undefined {
  const ext = extname(path).toLowerCase();
  return specs.find((s) => s.extensions.includes(ext));
}
