// "Unknown tool" is only useful with the names the model probably meant.
import type { ToolSource } from '../registry.js';

function distance(a: string, b: string): number {
  const prev = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}

export function unknownToolMessage(name: string, registry: ToolSource): string {
  const names = registry.list().map((t) => t.name);
  if (names.length === 0) return `Unknown tool "${name}": no tools are registered.`;
  const lower = name.toLowerCase();
  const close = names
    .map((n) => ({ n, d: distance(lower, n.toLowerCase()) - (n.toLowerCase().includes(lower) || lower.includes(n.toLowerCase()) ? 2 : 0) }))
    .filter((x) => x.d <= Math.max(2, Math.floor(name.length / 3)))
    .sort((a, b) => a.d - b.d)
    .slice(0, 3)
    .map((x) => x.n);
  const hint = close.length ? ` Did you mean ${close.map((n) => `"${n}"`).join(' or ')}?` : '';
  const shown = names.slice(0, 30).join(', ') + (names.length > 30 ? `, ... (${names.length} in all)` : '');
  return `Unknown tool "${name}".${hint} Available tools: ${shown}.`;
}
