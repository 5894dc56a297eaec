// Bundles the CLI into a few files (packages/cli/dist/bundle). Loading ~600 modules one by one is
// most of a cold start; one bundle starts the CLI and `toolbelt mcp` two to three times faster.
// Native and data-carrying packages stay external and are resolved from node_modules at run time.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}packages/cli/dist/bundle`;
rmSync(outdir, { recursive: true, force: true });

await build({
  entryPoints: [`${root}packages/cli/src/main.ts`],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  alias: {
    // The config sections of mcp, gateway and integrations, which every command reads without loading the rest.
    '@toolbelt/mcp/config': `${root}packages/mcp/src/config.ts`,
    '@toolbelt/gateway/config': `${root}packages/gateway/src/config.ts`,
    '@toolbelt/integrations/config': `${root}packages/integrations/src/section.ts`,
    '@toolbelt/core/classic': `${root}packages/core/src/classic/index.ts`,
    '@toolbelt/core/net': `${root}packages/core/src/net/index.ts`,
    '@toolbelt/protocol/routes': `${root}packages/protocol/src/routes/index.ts`,
    ...Object.fromEntries(
      ['core', 'protocol', 'tools', 'agent', 'mcp', 'gateway', 'client', 'integrations'].map((p) => [
        `@toolbelt/${p}`,
        `${root}packages/${p}/src/index.ts`,
      ]),
    ),
  },
  // better-sqlite3 is native; the others carry files (wasm, a server) found by path.
  // pg-native is pg's optional native driver, never installed: pg loads it only when asked.
  external: [
    'better-sqlite3',
    'pg-native',
    'typescript',
    'typescript-language-server',
    'web-tree-sitter',
    'tree-sitter-bash',
  ],
  // Bundled CommonJS dependencies still call require().
  banner: {
    js: "import { createRequire as __tbCreateRequire } from 'node:module'; const require = __tbCreateRequire(import.meta.url);",
  },
});
