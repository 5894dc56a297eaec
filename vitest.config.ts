import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string, module = 'index') =>
  fileURLToPath(new URL(`./packages/${pkg}/src/${module}.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run against the sources, so a change in core is seen without a rebuild.
    alias: {
      // Subpaths before their package: the first alias that matches wins.
      '@toolbelt/mcp/config': src('mcp', 'config'),
      '@toolbelt/gateway/config': src('gateway', 'config'),
      '@toolbelt/adapters/ai-sdk': src('adapters', 'ai-sdk/index'),
      '@toolbelt/adapters/langchain': src('adapters', 'langchain/index'),
      '@toolbelt/adapters/openai-agents': src('adapters', 'openai-agents/index'),
      '@toolbelt/integrations/config': src('integrations', 'section'),
      '@toolbelt/core/approval': src('core', 'approval'),
      '@toolbelt/core/classic': src('core', 'classic/index'),
      '@toolbelt/core/net': src('core', 'net/index'),
      '@toolbelt/core': src('core'),
      '@toolbelt/protocol/routes': src('protocol', 'routes/index'),
      '@toolbelt/protocol': src('protocol'),
      '@toolbelt/tools': src('tools'),
      '@toolbelt/mcp': src('mcp'),
      '@toolbelt/client': src('client'),
      '@toolbelt/integrations': src('integrations'),
      '@toolbelt/gateway': src('gateway'),
      '@toolbelt/agent': src('agent'),
    },
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'clients/*/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
