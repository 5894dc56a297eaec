// ctx.config in the CLI's runtime: each tool's calls see the config section of the package it comes
// from (frozen), and nothing of the gateway's own section.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defineTool, type ToolContext } from '@toolbelt/core';
import { FIXTURE_SERVER } from '../../mcp/src/__fixtures__/servers.js';
import { useIsolatedState, writeTrustedConfig } from './__fixtures__/trust.js';
import { defaultProviders } from './providers.js';
import { createRuntime } from './runtime.js';

useIsolatedState();
const root = realpathSync(mkdtempSync(join(tmpdir(), 'tb-tool-config-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const fx = { command: process.execPath, args: [FIXTURE_SERVER], allowedTools: ['ask_user'] };
const declared = {
  name: 'fetchExternalData',
  description: 'Look up data',
  inputSchema: { type: 'object' },
  executionType: 'external',
  timeout: 10000,
};
const CONFIG = {
  mode: 'yolo',
  sandbox: { mode: 'off' },
  shell: { allow: ['make test'] },
  web: { userAgent: 'toolbelt-test' },
  integrations: { timeZone: 'Europe/Berlin' },
  mcpServers: { fx },
  tools: [declared],
  gateway: { tokens: [{ token: 'admin-token-0123456789', roles: ['admin'] }] },
};

/** A tool of a given kind that reports the config its call sees. */
const probe = (name: string, category: string) =>
  defineTool({
    name,
    description: name,
    category,
    input: { type: 'object' },
    effect: 'read',
    execute: (_i, ctx: ToolContext) => JSON.stringify(ctx.config ?? null),
  });

describe('ctx.config in the CLI runtime', () => {
  it("is the section of the tool's package: built-ins, an MCP server's entry, integrations, a declaration", async () => {
    writeTrustedConfig(root, CONFIG);
    const rt = await createRuntime({ root: [root] }, { providers: defaultProviders() });
    try {
      const builtin = rt.executor.toolConfig('shell_exec');
      expect(builtin).toEqual({
        sandbox: { mode: 'off' },
        shell: { allow: ['make test'] },
        web: { userAgent: 'toolbelt-test' },
      });
      expect(rt.executor.toolConfig('read_file')).toBe(builtin);
      expect(Object.isFrozen((builtin as { shell: object }).shell)).toBe(true);
      expect(rt.executor.toolConfig('fx__ask_user')).toEqual(fx);
      const linkedin = rt.registry.list().find((t) => t.category === 'integrations')!;
      expect(rt.executor.toolConfig(linkedin.name)).toEqual({ timeZone: 'Europe/Berlin' });
      // The gateway registers declared tools on the same registry; a call of one sees its declaration.
      rt.registry.register(probe('fetchExternalData', 'declared'));
      const seen = await rt.executor.call({ tool: 'fetchExternalData', input: {} });
      expect(JSON.parse((seen.content[0] as { text: string }).text)).toEqual(declared);
      // Control: a tool of no package of the config (the gateway's space tools) gets none, so no token leaks.
      rt.registry.register(probe('enter_space_probe', 'spaces'));
      const none = await rt.executor.call({ tool: 'enter_space_probe', input: {} });
      expect((none.content[0] as { text: string }).text).toBe('null');
    } finally {
      await rt.close();
    }
  });
});
