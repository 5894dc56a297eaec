// Tool families beyond the built-ins that join every CLI runtime (MCP servers, declared tools).
import type { ToolProvider } from './runtime.js';

export function defaultProviders(): ToolProvider[] {
  return [];
}
