// "Did you mean": the names a few edits away from a misspelled one, and the parameter a borrowed
// name meant. Used for unknown tools, parameters and tool groups, and by the CLI for unknown
// commands and options.

/** Edit distance: insertions, deletions, substitutions and swaps of two neighbours ("mpc" to "mcp" is one). */
export function editDistance(a: string, b: string): number {
  // Three rows: the one before the previous is for swaps.
  let before = new Array<number>(b.length + 1).fill(0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j], before[j - 2] + 1);
    }
    [before, prev] = [prev, row];
  }
  return prev[b.length];
}

/** Names within a few edits of `name`, ignoring case (a contained name counts as closer), closest first. */
export function similarNames(name: string, names: readonly string[], max = 3): string[] {
  const lower = name.toLowerCase();
  return (
    names
      .map((n) => ({
        n,
        d:
          editDistance(lower, n.toLowerCase()) -
          (n.toLowerCase().includes(lower) || lower.includes(n.toLowerCase()) ? 2 : 0),
      }))
      // A short name allows one edit ("nope" is not "code"), a longer one a third of its length.
      .filter((x) => x.d <= Math.max(name.length < 6 ? 1 : 2, Math.floor(name.length / 3)))
      .sort((a, b) => a.d - b.d)
      .slice(0, max)
      .map((x) => x.n)
  );
}

/** ` Did you mean "a" or "b"?` for the names close to `name`, or '' when none is. */
export function didYouMean(name: string, names: readonly string[], max = 3): string {
  const close = similarNames(name, names, max);
  return close.length ? ` Did you mean ${close.map((n) => `"${n}"`).join(' or ')}?` : '';
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
  const [near] = similarNames(name, params, 1);
  if (near) return near;
  const mine = new Set(words(name));
  let best: { p: string; shared: number; d: number } | undefined;
  for (const p of params) {
    const shared = words(p).filter((w) => mine.has(w)).length;
    const d = editDistance(name.toLowerCase(), p.toLowerCase());
    if (shared > 0 && (!best || shared > best.shared || (shared === best.shared && d < best.d)))
      best = { p, shared, d };
  }
  return best?.p;
}
