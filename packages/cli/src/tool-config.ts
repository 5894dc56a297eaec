// What a tool's calls see as ctx.config: the config section of the package the tool comes from —
// the built-ins the tools package's sections (workspace, shell, sandbox, search, web, lsp), a proxied
// MCP tool its server's entry, an integration the integrations section, a declared gateway tool its
// own declaration. The gateway's own section (tokens) is given to no tool.
import { groupOf, type Tool } from '@toolbelt/core';
import { toolsConfigShape } from '@toolbelt/tools';
import type { ToolbeltConfig } from './config/schema.js';

const TOOLS_SECTIONS = Object.keys(toolsConfigShape) as (keyof typeof toolsConfigShape)[];

/** The resolver the executor asks once per tool; `builtins` are the names the tools package registered. */
export function toolConfigOf(
  config: ToolbeltConfig,
  builtins: ReadonlySet<string>,
): (tool: Tool) => object | undefined {
  // One object for every built-in, so the executor freezes one copy.
  const toolsSections = Object.fromEntries(
    TOOLS_SECTIONS.flatMap((k) => (config[k] === undefined ? [] : [[k, config[k]]])),
  );
  return (tool) => {
    if (builtins.has(tool.name)) return toolsSections;
    const group = groupOf(tool);
    const server = group.startsWith('mcp:') ? group.slice(4) : undefined;
    if (server !== undefined) return config.mcpServers?.[server];
    if (tool.category === 'integrations') return config.integrations ?? {};
    if (tool.category === 'declared') return config.tools?.find((t) => t.name === tool.name);
    return undefined;
  };
}
