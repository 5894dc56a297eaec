import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string, module = 'index') => fileURLToPath(new URL(`./packages/${pkg}/src/${module}.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run against the sources, so a change in core is seen without a rebuild.
    alias: {
      // Subpaths before their package: the first alias that matches wins.
      '@toolbelt/mcp/config': src('mcp', 'config'),
      '@toolbelt/gateway/config': src('gateway', 'config'),
      '@toolbelt/core': src('core'),
      '@toolbelt/tools': src('tools'),
      '@toolbelt/mcp': src('mcp'),
      '@toolbelt/client': src('client'),
      '@toolbelt/gateway': src('gateway'),
    },
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'bench/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
