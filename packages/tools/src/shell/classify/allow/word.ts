// A shell word as a file a reader opens: pipes and streams are fine, computed words and the network
// are not, globs are expanded against the tree, and each path must pass the tree's rules.
import { basename } from 'node:path';
import { hasGlob, type Word } from '../words.js';
import { expandGlob, readProblem, realLoose, type IsProtected } from './tree.js';
import { walkProblem, WalkTooLong, type WalkMode } from './walk-tree.js';
import { TooLarge } from '../budget.js';

/** Reading these is reading a pipe or the terminal, not a file. */
const STREAMS = /^\/dev\/(stdin|stdout|stderr|null|zero|fd\/\d+)$|^\/proc\/self\/fd\/\d+$/;
const NETWORK_FILE = /^\/dev\/(tcp|udp)\//;

export interface WordContext {
  cwd: string | undefined;
  resolve(w: Word): string | undefined;
  roots: readonly string[];
  isDirectory(path: string): boolean;
  isProtected?: IsProtected;
  /** Called when the word names a secret, so the script lists it as a protected read. */
  secret(w: Word): void;
  /** Counts words a glob made against the classification's budget (throws when spent). */
  spend?(n: number): void;
  /** Reads run read-only in the sandbox with the roots' secrets hidden (see ClassifyOptions.readsConfined). */
  confined?: boolean;
  /** True once the classification's time is spent. */
  expired?(): boolean;
}

/** The walk of a recursive read, its running out of time made the classification's own cap. */
function walked(dir: string, mode: WalkMode, ctx: WordContext): string | undefined {
  try {
    return walkProblem(realLoose(dir), mode, {
      roots: ctx.roots,
      ...(ctx.isProtected ? { isProtected: ctx.isProtected } : {}),
      ...(ctx.confined ? { confined: true } : {}),
      ...(ctx.expired ? { expired: ctx.expired } : {}),
    });
  } catch (err) {
    if (err instanceof WalkTooLong) throw new TooLarge(err.message);
    throw err;
  }
}

export function wordReadProblem(w: Word, walk: WalkMode | undefined, ctx: WordContext): string | undefined {
  if (w.under) {
    const mode: WalkMode = {
      follow: w.under.follow,
      skipHidden: false,
      ...(w.under.split ? { split: w.under.split } : {}),
      ...(w.under.bare ? { dashTop: true } : {}),
    };
    for (const start of w.under.starts) {
      const why = wordReadProblem(start, mode, ctx);
      if (why) return why;
    }
    return undefined;
  }
  if (w.pipe) return undefined;
  if (!w.static) return `${w.source} is computed`;
  if (w.value === '-' || STREAMS.test(w.value)) return undefined;
  if (NETWORK_FILE.test(w.value)) return `${w.value} opens a network connection`;
  const abs = ctx.resolve(w);
  if (!abs) return `the directory ${w.source} is relative to is not known`;
  let paths = [abs];
  if (hasGlob(w)) {
    const matches = expandGlob(w.pattern, w.value.startsWith('/') ? '/' : ctx.cwd!);
    if (!matches) return `${w.source} matches too many files to check`;
    ctx.spend?.(matches.length);
    if (matches.length) paths = matches;
  }
  for (const p of paths) {
    const problem = readProblem(p, ctx.roots, 'read', ctx.isProtected, ctx.confined);
    if (problem) {
      if (problem.secret) ctx.secret(w);
      return problem.why;
    }
    if (walk && ctx.isDirectory(p)) {
      const why = walked(p, walk, ctx);
      if (why) return why;
    }
  }
  return undefined;
}

/**
 * The name a glob among a command's arguments gives it that starts with `-` (`rg -n . *` with a file
 * named `--pre=sh` runs `rg -n . --pre=sh`), or undefined. bash expands the glob before the command
 * parses its options, so such a name is an option, whatever the command. `cwd` undefined: a
 * relative glob cannot be expanded, and is reported with its own text.
 */
export function globOption(
  words: readonly Word[],
  cwd: string | undefined,
  spend?: (n: number) => void,
): { word: Word; name?: string } | undefined {
  for (const w of words) {
    if (!w.static || !hasGlob(w) || w.pattern.startsWith('/')) continue;
    // Only the first path segment can make the word start with `-`.
    const first = w.pattern.split('/')[0];
    if (!/(^|[^\\])[*?[]/.test(first)) continue;
    if (cwd === undefined) return { word: w };
    const names = expandGlob(first, cwd);
    if (!names) return { word: w };
    spend?.(names.length);
    const dash = names.map((p) => basename(p)).find((n) => n.startsWith('-'));
    if (dash) return { word: w, name: dash };
  }
  return undefined;
}

/**
 * Why a glob among the arguments lists names where the command may not look, or undefined: the
 * directory it is expanded in (the part before its first glob character) must be inside the roots
 * and not a secret. `echo ~/.ssh/*` and `printf '%s\n' /etc/*` print names from outside.
 */
export function globDirectoryProblem(words: readonly Word[], ctx: WordContext): string | undefined {
  for (const w of words) {
    if (!w.static || !hasGlob(w)) continue;
    const segments = w.pattern.split('/');
    const firstGlob = segments.findIndex((seg) => /(^|[^\\])[*?[]/.test(seg));
    const dirPattern = segments.slice(0, firstGlob).join('/') || (w.pattern.startsWith('/') ? '/' : '.');
    const dirValue = dirPattern.replace(/\\(.)/g, '$1');
    const abs = ctx.resolve({ value: dirValue, pattern: dirPattern, static: true, source: dirValue });
    if (!abs) return `the directory ${w.source} is expanded in is not known`;
    const problem = readProblem(abs, ctx.roots, 'read', ctx.isProtected);
    if (problem) return `the glob ${w.source} lists names in ${dirValue}: ${problem.why}`;
  }
  return undefined;
}
