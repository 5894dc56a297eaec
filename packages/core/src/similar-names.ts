// "Did you mean": the names a few edits away from a misspelled one. Used for unknown tools,
// parameters and tool groups, and by the CLI for unknown commands and options.

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
