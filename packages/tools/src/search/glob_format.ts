// glob's answer: paths relative to the searched folder, named once in a header. A long answer is
// grouped by directory, so a directory's name is written once rather than once per file.

/** Above this many paths the answer is grouped by directory. */
export const GROUP_OVER = 30;

/**
 * `rels`: paths relative to the searched folder, newest first. `where`: that folder as the model
 * names it ('.' for the workspace root, which needs no header).
 */
export function formatGlob(rels: string[], where: string): string {
  const header = where === '.' ? [] : [`in ${where}/:`];
  if (rels.length <= GROUP_OVER) return [...header, ...rels].join('\n');
  // Directories in the order of their newest file; files within one stay newest first.
  const groups = new Map<string, string[]>();
  for (const rel of rels) {
    const cut = rel.lastIndexOf('/');
    const dir = cut < 0 ? './' : rel.slice(0, cut + 1);
    const names = groups.get(dir) ?? [];
    names.push(rel.slice(cut + 1));
    groups.set(dir, names);
  }
  const lines = header;
  for (const [dir, names] of groups) lines.push(dir, ...names.map((n) => `  ${n}`));
  return lines.join('\n');
}
