// What a read-only command may read: real paths inside the workspace roots, outside the
// sensitive-file rules, with globs expanded against the tree first (`cat .e*` is `cat .env`) and
// the directories a recursive reader walks searched for secrets before it runs.
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import picomatch from 'picomatch';
import { sensitiveReason } from '../../../workspace/sensitive.js';

export interface Roots {
  readonly roots: readonly string[];
}

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

/** The path below the root that holds it, or undefined when no root does. */
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

/**
 * Why reading this absolute path is not a plain read, or undefined when it is: outside the roots
 * (after symlinks), a secret, or a file with other hard links whose names we cannot see.
 */
/** Paths the workspace protects beyond the name rules (`--config FILE`, the gateway's database). */
export type IsProtected = (real: string, access: 'read' | 'write') => boolean;

export function readProblem(
  abs: string,
  roots: readonly string[],
  access: 'read' | 'write' = 'read',
  isProtected?: IsProtected,
): { why: string; secret?: true } | undefined {
  const given = belowRoot(abs, roots);
  if (given !== undefined) {
    const why = sensitiveReason(given, access);
    if (why) return { why: `${given || '.'} is protected: ${why}`, secret: true };
  }
  const real = realLoose(abs);
  const rel = belowRoot(real, roots);
  if (rel === undefined) return { why: real === abs ? `${abs} is outside the workspace` : `${abs} resolves to ${real}, outside the workspace` };
  const why = sensitiveReason(rel, access);
  if (why) return { why: `${rel || '.'} is protected: ${why}`, secret: true };
  if (isProtected?.(real, access)) return { why: `${rel} is protected: it is one of toolbelt's own files`, secret: true };
  try {
    const st = statSync(real);
    if (st.isFile() && st.nlink > 1) return { why: `${rel} has ${st.nlink} hard links; another name may be outside the workspace` };
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
      const isMatch = picomatch(seg, { dot: seg.startsWith('.'), nobrace: true, noextglob: true, noglobstar: true, nonegate: true });
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

export interface WalkMode {
  /** Follow symbolic links met in the walk (grep -R, rg -L). */
  follow: boolean;
  /** Skip dotfiles and dot-directories (rg without --hidden). */
  skipHidden: boolean;
}

const MAX_ENTRIES = 20_000;
const MAX_DEPTH = 40;
const CACHE_MS = 1_000;
const cache = new Map<string, { at: number; why: string | undefined }>();

/**
 * Why a recursive read of this directory is not a plain read: it holds a secret, a link out of
 * the workspace, or more files than we check. Cached for a second (a script classifies fast).
 */
export function walkProblem(realDir: string, roots: readonly string[], mode: WalkMode, isProtected?: IsProtected): string | undefined {
  const key = `${mode.follow ? 1 : 0}${mode.skipHidden ? 1 : 0}${roots.join('\0')}\0${realDir}`;
  const hit = cache.get(key);
  const now = Date.now();
  if (hit && now - hit.at < CACHE_MS) return hit.why;
  const why = walk(realDir, roots, mode, isProtected);
  if (cache.size > 256) cache.clear();
  cache.set(key, { at: now, why });
  return why;
}

function walk(start: string, roots: readonly string[], mode: WalkMode, isProtected?: IsProtected): string | undefined {
  const stack: [string, number][] = [[start, 0]];
  const seen = new Set<string>([start]);
  let entries = 0;
  while (stack.length) {
    const [dir, depth] = stack.pop()!;
    if (depth > MAX_DEPTH) return `${dir} is nested too deeply to check`;
    let list;
    try {
      list = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of list) {
      if (++entries > MAX_ENTRIES)
        return `more than ${MAX_ENTRIES} files below ${belowRoot(start, roots) || '.'} to check for secrets; search a narrower directory`;
      if (mode.skipHidden && e.name.startsWith('.')) continue;
      const path = join(dir, e.name);
      const rel = belowRoot(path, roots) ?? path;
      const why = sensitiveReason(rel, 'read') ?? (isProtected?.(path, 'read') ? "it is one of toolbelt's own files" : undefined);
      if (why) return `it would read ${rel}: ${why}`;
      if (e.isSymbolicLink()) {
        if (!mode.follow) continue;
        const real = realLoose(path);
        if (belowRoot(real, roots) === undefined) return `${rel} links to ${real}, outside the workspace`;
        if (seen.has(real)) continue;
        seen.add(real);
        try {
          if (lstatSync(real).isDirectory()) stack.push([real, depth + 1]);
          else if (sensitiveReason(belowRoot(real, roots) ?? real, 'read')) return `${rel} links to a protected file`;
        } catch {
          // dangling
        }
        continue;
      }
      // Hard links are checked on named files only: a stat per walked file costs more than the walk.
      if (e.isDirectory()) stack.push([path, depth + 1]);
    }
  }
  return undefined;
}
