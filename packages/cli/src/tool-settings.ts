// The config's toolSettings, applied in one place: the runtime hands every tool that joins its
// registry through here, the built-ins at start and MCP servers' tools as their servers connect.
import type { Tool } from '@toolbelt/core';
import type { ToolbeltConfig } from './config/schema.js';

/** The tool as toolSettings has it: undefined when disabled; timeoutMs, retry and cacheTtlMs override its own. */
export function applyToolSettings(tool: Tool, settings: ToolbeltConfig['toolSettings']): Tool | undefined {
  const s = settings?.[tool.name];
  if (!s) return tool;
  if (s.enabled === false) return undefined;
  return Object.freeze({
    ...tool,
    ...(s.timeoutMs ? { timeoutMs: s.timeoutMs } : {}),
    ...(s.retry ? { retry: s.retry } : {}),
    ...(s.cacheTtlMs !== undefined ? { cacheTtlMs: s.cacheTtlMs } : {}),
  });
}
