// A shell word as a file a reader opens: pipes and streams are fine, computed words and the network
// are not, globs are expanded against the tree, and each path must pass the tree's rules.
import { hasGlob, type Word } from '../words.js';
import { expandGlob, readProblem, realLoose, walkProblem, type IsProtected, type WalkMode } from './tree.js';

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
}

export function wordReadProblem(w: Word, walk: WalkMode | undefined, ctx: WordContext): string | undefined {
  if (w.under) {
    for (const start of w.under.starts) {
      const why = wordReadProblem(start, { follow: w.under.follow, skipHidden: false }, ctx);
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
    const problem = readProblem(p, ctx.roots, 'read', ctx.isProtected);
    if (problem) {
      if (problem.secret) ctx.secret(w);
      return problem.why;
    }
    if (walk && ctx.isDirectory(p)) {
      const why = walkProblem(realLoose(p), ctx.roots, walk, ctx.isProtected);
      if (why) return why;
    }
  }
  return undefined;
}
