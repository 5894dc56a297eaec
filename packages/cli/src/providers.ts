// Tool families beyond the built-ins that join every CLI runtime (MCP servers, declared tools,
// the integrations whose credentials are set).
import { mcpProvider, type McpProviderOptions } from '@toolbelt/mcp';
import type { ToolProvider } from './runtime.js';

/** LinkedIn always; Gmail, Calendar and anthropic_usage when their credentials are in the environment or the workspace .env. */
const integrationsProvider: ToolProvider = async (rt) => {
  // Loaded when a runtime is built, so commands that build none never parse its HTML libraries.
  const { integrationTools } = await import('@toolbelt/integrations');
  return {
    tools: integrationTools({
      env: rt.env,
      stateDir: rt.stateDir,
      ...(rt.config.integrations ? { config: rt.config.integrations } : {}),
    }).tools,
  };
};

export function defaultProviders(opts: { mcp?: McpProviderOptions } = {}): ToolProvider[] {
  return [integrationsProvider, mcpProvider(opts.mcp)];
}
