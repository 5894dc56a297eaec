// What a read-only command may read: real paths inside the workspace roots, outside the
// sensitive-file rules, with globs expanded against the tree first (`cat .e*` is `cat .env`). The
// directories a recursive reader walks are walk-tree.ts's part.
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import picomatch from 'picomatch';
import { belowRoot } from '../../../workspace/below-root.js';
import { sensitiveReason } from '../../../workspace/sensitive.js';

export { belowRoot };

/** Real path of a path that may not exist yet (its nearest existing parent resolved). */
export function realLoose(abs: string, depth = 0): string {
  try {
    return realpathSync.native(abs);
  } catch {
    const parent = dirname(abs);
    if (parent === abs || depth > 64) return abs;
    return join(realLoose(parent, depth + 1), basename(abs));
  }
}

/** Paths the workspace protects beyond the name rules (`--config FILE`, the gateway's database). */
export type IsProtected = (real: string, access: 'read' | 'write') => boolean;

/**
 * Why reading this absolute path is not a plain read, or undefined when it is: outside the roots
 * (after symlinks), a secret, or a file with other hard links whose names we cannot see. `confined`:
 * reads run in the read-only sandbox, where a hard link is just a file of the read-only view: its
 * other names were made by the user or by a command that asked (`ln` of a file from outside is not
 * an edit), and no command inside a sandbox can link a file from another mount (EXDEV).
 */
export function readProblem(
  abs: string,
  roots: readonly string[],
  access: 'read' | 'write' = 'read',
  isProtected?: IsProtected,
  confined = false,
): { why: string; secret?: true } | undefined {
  const given = belowRoot(abs, roots);
  if (given !== undefined) {
    const why = sensitiveReason(given, access);
    if (why) return { why: `${given || '.'} is protected: ${why}`, secret: true };
  }
  const real = realLoose(abs);
  const rel = belowRoot(real, roots);
  if (rel === undefined)
    return {
      why: real === abs ? `${abs} is outside the workspace` : `${abs} resolves to ${real}, outside the workspace`,
    };
  const why = sensitiveReason(rel, access);
  if (why) return { why: `${rel || '.'} is protected: ${why}`, secret: true };
  if (isProtected?.(real, access))
    return { why: `${rel} is protected: it is one of toolbelt's own files`, secret: true };
  if (confined) return undefined;
  try {
    const st = statSync(real);
    if (st.isFile() && st.nlink > 1)
      return { why: `${rel} has ${st.nlink} hard links; another name may be outside the workspace` };
  } catch {
    // Not there: the command fails on it.
  }
  return undefined;
}

const MAX_MATCHES = 2_000;

/**
 * Expands a glob as bash would (unquoted `*`, `?`, `[...]`, no dotfiles unless the pattern
 * segment starts with a dot), against the tree. `pattern` has quoted characters escaped.
 * Returns undefined when the expansion is too large to check.
 */
export function expandGlob(pattern: string, cwd: string): string[] | undefined {
  const absolute = pattern.startsWith('/');
  const segments = pattern.split('/').filter((s, i) => s !== '' || i === 0);
  let current = [absolute ? '/' : cwd];
  for (const seg of segments) {
    if (seg === '') continue;
    const next: string[] = [];
    if (!/(^|[^\\])[*?[]/.test(seg)) {
      const lit = seg.replace(/\\(.)/g, '$1');
      for (const dir of current) next.push(join(dir, lit));
    } else {
      const isMatch = picomatch(seg, {
        dot: seg.startsWith('.'),
        nobrace: true,
        noextglob: true,
        noglobstar: true,
        nonegate: true,
      });
      for (const dir of current) {
        let names: string[];
        try {
          names = readdirSync(dir);
        } catch {
          continue;
        }
        for (const n of names) if (isMatch(n)) next.push(join(dir, n));
        if (next.length > MAX_MATCHES) return undefined;
      }
    }
    current = next;
    if (!current.length) return [];
  }
  return current;
}

export type { WalkMode } from './walk-tree.js';
