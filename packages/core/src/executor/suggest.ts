// "Unknown tool" and "unknown parameter" are only useful with the name the model probably meant.
import type { ToolSource } from '../registry.js';
import { didYouMean, editDistance as distance, similarNames as closeNames } from '../similar-names.js';

export function unknownToolMessage(name: string, registry: ToolSource): string {
  const names = registry.list().map((t) => t.name);
  if (names.length === 0) return `Unknown tool "${name}": no tools are registered.`;
  const hint = didYouMean(name, names);
  const shown = names.slice(0, 30).join(', ') + (names.length > 30 ? `, ... (${names.length} in all)` : '');
  return `Unknown tool "${name}".${hint} Available tools: ${shown}.`;
}

// Models carry parameter names over from other tool sets (`head_limit`, `limit`): a word that
// means the same counts as shared when no name is a few edits away.
const SAME_WORD: Record<string, string> = { limit: 'max', maximum: 'max' };

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map((w) => SAME_WORD[w] ?? w);
}

/** The parameter a misspelled or borrowed name most likely meant, if any is close. */
export function closestParameter(name: string, params: readonly string[]): string | undefined {
  const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  const same = params.find((p) => squash(p) === squash(name));
  if (same) return same;
  const [near] = closeNames(name, params, 1);
  if (near) return near;
  const mine = new Set(words(name));
  let best: { p: string; shared: number; d: number } | undefined;
  for (const p of params) {
    const shared = words(p).filter((w) => mine.has(w)).length;
    const d = distance(name.toLowerCase(), p.toLowerCase());
    if (shared > 0 && (!best || shared > best.shared || (shared === best.shared && d < best.d)))
      best = { p, shared, d };
  }
  return best?.p;
}
