// The built-ins with the names and parameter spellings other tool sets give them (table.ts).
import type { Tool } from '@toolbelt/core';
import { BUILTIN_ALIASES } from './table.js';

export { BUILTIN_ALIASES };

/** The tool with its aliases from the table; a tool the table does not name is returned as it is. */
export function withAliases(tool: Tool): Tool {
  const aliases = Object.hasOwn(BUILTIN_ALIASES, tool.name) ? BUILTIN_ALIASES[tool.name] : undefined;
  if (!aliases || tool.aliases) return tool;
  return Object.freeze({ ...tool, aliases });
}
