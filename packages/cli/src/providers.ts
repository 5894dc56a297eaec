// Tool families beyond the built-ins that join every CLI runtime (MCP servers, declared tools).
import { mcpProvider, type McpProviderOptions } from '@toolbelt/mcp';
import type { ToolProvider } from './runtime.js';

export function defaultProviders(opts: { mcp?: McpProviderOptions } = {}): ToolProvider[] {
  return [mcpProvider(opts.mcp)];
}
