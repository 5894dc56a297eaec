// "Unknown tool" is only useful with the name the model probably meant (closestParameter, in
// similar-names.ts, does the same for parameters).
import type { ToolSource } from '../source.js';
import { didYouMean } from '../similar-names.js';

export function unknownToolMessage(name: string, registry: ToolSource): string {
  const names = registry.list().map((t) => t.name);
  if (names.length === 0) return `Unknown tool "${name}": no tools are registered.`;
  const hint = didYouMean(name, names);
  const shown = names.slice(0, 30).join(', ') + (names.length > 30 ? `, ... (${names.length} in all)` : '');
  return `Unknown tool "${name}".${hint} Available tools: ${shown}.`;
}
