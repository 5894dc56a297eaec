// Path containment, one rule for the workspace guard and the shell classifier: a real path is
// inside a root when it is the root or below it (`/srv/app2` is not below `/srv/app`), compared
// by path (callers resolve links first).
import { isAbsolute, relative, sep } from 'node:path';

/** The path below the root that holds `real` ('' for a root itself; the shortest when roots nest), or undefined when no root does. */
export function belowRoot(real: string, roots: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const root of roots) {
    const rel = relative(root, real);
    if (rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))) {
      if (best === undefined || rel.length < best.length) best = rel;
    }
  }
  return best;
}
