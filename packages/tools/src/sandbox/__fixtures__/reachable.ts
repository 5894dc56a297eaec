// The tests as nobody run this checkout's built packages, so nobody must be able to reach them. A
// checkout made with `mktemp -d` (as CI makes one) is mode 0700: nobody cannot even pass through
// it. The checkout's own directory is given the search bit for others (o+x: pass through, not
// list), once, and left so (tests in other files run at the same time); a directory above the
// checkout is the machine's business and is not touched: then the reason is returned.
import { chmodSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The repository this file is in. */
export const REPO = join(import.meta.dirname, '..', '..', '..', '..', '..');

/** Undefined when nobody can reach the checkout (after opening its own directory), else why not. */
export function openCheckoutToNobody(repo = REPO): string | undefined {
  const mode = statSync(repo).mode;
  if (!(mode & 0o001)) chmodSync(repo, (mode & 0o7777) | 0o001);
  for (let dir = dirname(repo); ; dir = dirname(dir)) {
    if (!(statSync(dir).mode & 0o001))
      return `${dir} (above the checkout) cannot be passed through by other users: chmod o+x it, or check out elsewhere`;
    if (dir === dirname(dir)) return undefined;
  }
}
