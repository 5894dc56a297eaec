// Path containment, one rule for the workspace guard and the shell classifier: a real path is
// inside a root when it is the root or below it (`/srv/app2` is not below `/srv/app`), compared
// by path (callers resolve links first).
import { isAbsolute, relative, sep } from 'node:path';

/** The path below the root that holds `real` ('' for a root itself; the shortest when roots nest), or undefined when no root does. */
export function belowRoot(real: string, roots: readonly string[]): string | undefined {
  // The common case without path.relative (which resolves both paths again): a plain path below the
  // only root. Searches ask this for every hit.
  if (roots.length === 1) {
    const fast = plainBelow(real, roots[0]);
    if (fast !== undefined) return fast;
  }
  let best: string | undefined;
  for (const root of roots) {
    const rel = relative(root, real);
    if (rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))) {
      if (best === undefined || rel.length < best.length) best = rel;
    }
  }
  return best;
}

/** `real` below `root` when it is plainly so (no `.` or `..` segment, no `//`), else undefined: path.relative decides. */
function plainBelow(real: string, root: string): string | undefined {
  if (real === root) return '';
  const prefix = root.endsWith(sep) ? root : root + sep;
  if (!real.startsWith(prefix)) return undefined;
  const rel = real.slice(prefix.length);
  const plain = !rel.startsWith('.') && !rel.includes(sep + '.') && !rel.includes(sep + sep);
  return plain ? rel : undefined;
}
