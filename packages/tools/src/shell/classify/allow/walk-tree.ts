// What a recursive reader (grep -r, rg, git grep, the files find hands to xargs) would meet below a
// directory, walked with the reader's own rules: rg skips hidden and ignored files, grep skips its
// --exclude-dir directories, toolbelt's own `.toolbelt/` is one finding and never descended. Where
// reads run in the sandbox (secrets shown empty), only what the sandbox does not cover is looked
// for: links out of the workspace (when the reader follows them) and names xargs would split.
//
// Directories are read once and kept by their inode, mtime and ctime, so a later walk costs a stat
// per directory. There is no cap on entries: the classification's clock bounds the walk.
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import picomatch from 'picomatch';
import { GitignoreMatcher, Overrides } from '../../../walk/gitignore.js';
import { secretDirName, sensitiveReason } from '../../../workspace/sensitive.js';
import { belowRoot, realLoose, type IsProtected } from './tree.js';

export interface WalkMode {
  /** Follow symbolic links met in the walk (grep -R, rg -L; a file named by find and opened by cat). */
  follow: boolean;
  /** Skip dotfiles and dot-directories (rg without --hidden). */
  skipHidden: boolean;
  /** The reader honours .ignore and .rgignore, and .gitignore inside a git repository (rg). */
  ignoreFiles?: boolean;
  /** Directory names the reader skips (grep --exclude-dir globs). */
  skipDirs?: readonly string[];
  /** File names the reader skips (grep --exclude globs). */
  skipFiles?: readonly string[];
  /** When given, only file names matching one of these are read (grep --include). */
  onlyFiles?: readonly string[];
  /** rg's --glob overrides: a match reads the file even when hidden or ignored, `!glob` skips it. */
  globs?: readonly string[];
  /** The names are relative to the start: an entry there whose name starts with `-` makes one an option. */
  dashTop?: boolean;
  /** The names become words: for xargs (`blank`: at blanks and quotes; `newline`), or of an unquoted `$(…)` (`shell`). */
  split?: 'blank' | 'newline' | 'shell';
}

export interface WalkContext {
  roots: readonly string[];
  isProtected?: IsProtected;
  /** Reads run read-only in the sandbox with the roots' secrets hidden: names need no check. */
  confined?: boolean;
  /** Polled while walking: true stops the walk (the caller's clock ran out). */
  expired?(): boolean;
}

export class WalkTooLong extends Error {}

interface DirFacts {
  stamp: string;
  files: string[];
  dirs: string[];
  links: string[];
  /** The files a walk may stop at by name: secrets, and names with blanks, quotes or glob characters. */
  marked: string[];
}

const dirCache = new Map<string, DirFacts>();
const MAX_CACHED_DIRS = 200_000;
const IGNORE_FILES = ['.gitignore', '.ignore', '.rgignore'];
// xargs splits at blanks and takes quotes and backslashes; the shell splits a `$(…)` at blanks and globs it.
const ODD = { blank: /[\s'"\\]/, newline: /\n/, shell: /[\s*?[]/ };
const ANY_ODD = /[\s'"\\*?[]/;

function stampOf(dir: string): string | undefined {
  const st = lstatSync(dir, { throwIfNoEntry: false });
  return st?.isDirectory() ? `${st.ino}:${st.mtimeMs}:${st.ctimeMs}` : undefined;
}

function factsOf(dir: string): DirFacts | undefined {
  const stamp = stampOf(dir);
  if (!stamp) return undefined;
  const hit = dirCache.get(dir);
  if (hit?.stamp === stamp) return hit;
  const facts: DirFacts = { stamp, files: [], dirs: [], links: [], marked: [] };
  try {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isSymbolicLink()) facts.links.push(e.name);
      else if (e.isDirectory()) facts.dirs.push(e.name);
      else {
        facts.files.push(e.name);
        if (ANY_ODD.test(e.name) || sensitiveReason(e.name, 'read')) facts.marked.push(e.name);
      }
    }
  } catch {
    // Unreadable: the reader cannot read it either.
  }
  if (dirCache.size > MAX_CACHED_DIRS) dirCache.clear();
  dirCache.set(dir, facts);
  return facts;
}

const matcherCache = new Map<string, { stamp: string; m: GitignoreMatcher }>();

function ignoreMatcher(path: string): GitignoreMatcher | undefined {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st?.isFile()) return undefined;
  const stamp = `${st.ino}:${st.mtimeMs}:${st.size}`;
  const hit = matcherCache.get(path);
  if (hit?.stamp === stamp) return hit.m;
  let m: GitignoreMatcher;
  try {
    m = GitignoreMatcher.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
  matcherCache.set(path, { stamp, m });
  return m;
}

function inGitRepo(dir: string): boolean {
  for (let d = dir; ; d = dirname(d)) {
    if (lstatSync(join(d, '.git'), { throwIfNoEntry: false })) return true;
    if (dirname(d) === d) return false;
  }
}

type Ignores = readonly { dir: string; m: GitignoreMatcher }[];

function ignored(ignores: Ignores, path: string, isDir: boolean): boolean {
  for (let i = ignores.length - 1; i >= 0; i--) {
    const v = ignores[i].m.matched(relative(ignores[i].dir, path), isDir);
    if (v) return v === 'ignore';
  }
  return false;
}

function globs(list: readonly string[] | undefined): ((name: string) => boolean) | undefined {
  return list?.length ? picomatch(list as string[], { dot: true }) : undefined;
}

/** The rules of one walk, compiled once. */
class Rules {
  readonly skipDir?: (name: string) => boolean;
  readonly skipFile?: (name: string) => boolean;
  readonly onlyFile?: (name: string) => boolean;
  readonly gitignore: boolean;
  readonly overrides?: Overrides;

  constructor(
    readonly mode: WalkMode,
    readonly ctx: WalkContext,
    readonly start: string,
  ) {
    if (mode.globs?.length) this.overrides = new Overrides(mode.globs);
    this.skipDir = globs(mode.skipDirs);
    this.skipFile = globs(mode.skipFiles);
    this.onlyFile = globs(mode.onlyFiles);
    this.gitignore = !!mode.ignoreFiles && inGitRepo(start);
  }

  /** Whether the reader reads this entry at all. */
  reads(name: string, path: string, isDir: boolean, ignores: Ignores): boolean {
    const override = this.overrides?.matched(relative(this.start, path), isDir, name);
    if (override) return override === 'whitelist';
    if (this.mode.skipHidden && name.startsWith('.')) return false;
    // The sandbox shows secret directories and toolbelt's own `.toolbelt/` empty.
    if (isDir && this.ctx.confined && secretDirName(name)) return false;
    if (isDir && this.skipDir?.(name)) return false;
    if (!isDir && (this.skipFile?.(name) || (this.onlyFile && !this.onlyFile(name)))) return false;
    return !ignores.length || !ignored(ignores, path, isDir);
  }

  /** Why reading this entry is not a plain read (a secret, toolbelt's own, a name xargs splits). */
  entryProblem(name: string, path: string, secretDir: string | undefined): string | undefined {
    if (this.mode.split && ODD[this.mode.split].test(name))
      return `the name ${JSON.stringify(name)} would be split into several words`;
    if (this.ctx.confined) return undefined;
    const rel = belowRoot(path, this.ctx.roots) ?? path;
    const why =
      secretDir ??
      sensitiveReason(name, 'read') ??
      (this.ctx.isProtected?.(path, 'read') ? "it is one of toolbelt's own files" : undefined);
    return why ? `it would read ${rel}: ${why}` : undefined;
  }

  /** Why the files of this directory are secret (`.ssh/`, `.toolbelt/`, a protected directory), outside the sandbox. */
  dirSecret(name: string, path: string): string | undefined {
    if (this.ctx.confined) return undefined;
    return (
      sensitiveReason(name, 'read') ??
      (this.ctx.isProtected?.(path, 'read') ? "it is one of toolbelt's own files" : undefined)
    );
  }

  ignoresAt(dir: string, parent: Ignores): Ignores {
    if (!this.mode.ignoreFiles) return parent;
    const found = IGNORE_FILES.filter((f) => f !== '.gitignore' || this.gitignore)
      .map((f) => ignoreMatcher(join(dir, f)))
      .filter((m): m is GitignoreMatcher => !!m);
    return found.length ? [...parent, ...found.map((m) => ({ dir, m }))] : parent;
  }
}

/** Whether a walk is needed at all: in the sandbox only links and split names are looked for. */
export function walkNeeded(mode: WalkMode, ctx: WalkContext): boolean {
  return !ctx.confined || mode.follow || !!mode.split || !!mode.dashTop;
}

/**
 * Why a recursive read of this directory is not a plain read, or undefined: what it would read
 * holds a secret or toolbelt's own files (outside the sandbox), a link out of the workspace (when
 * followed), or a name xargs would split. Throws WalkTooLong when the caller's clock runs out.
 */
export function walkProblem(start: string, mode: WalkMode, ctx: WalkContext): string | undefined {
  if (!walkNeeded(mode, ctx)) return undefined;
  // A script classifies several times in a moment (policy, the approver's preview): a second's memory.
  const key = JSON.stringify([start, mode, !!ctx.confined, !!ctx.isProtected, ctx.roots]);
  const hit = recent.get(key);
  if (hit && Date.now() - hit.at < RECENT_MS) return hit.why;
  const why = walkTree(start, mode, ctx);
  if (recent.size > 256) recent.clear();
  recent.set(key, { at: Date.now(), why });
  return why;
}

const RECENT_MS = 1_000;
const recent = new Map<string, { at: number; why: string | undefined }>();

function walkTree(start: string, mode: WalkMode, ctx: WalkContext): string | undefined {
  if (mode.dashTop) {
    const top = factsOf(start);
    const dash = top && [...top.files, ...top.dirs, ...top.links].find((n) => n.startsWith('-'));
    if (dash)
      return `${belowRoot(join(start, dash), ctx.roots) ?? dash} starts with -: a name printed relative to it would be an option`;
  }
  const rules = new Rules(mode, ctx, start);
  // Each directory with the ignore files above it, and why its files are secret (inside `.ssh/`).
  const stack: [string, Ignores, string | undefined][] = [[start, rules.ignoresAt(start, []), undefined]];
  const seen = new Set<string>([start]);
  let n = 0;
  while (stack.length) {
    if ((++n & 127) === 0 && ctx.expired?.())
      throw new WalkTooLong(`${belowRoot(start, ctx.roots) || '.'} has too many files to check in time`);
    const [dir, ignores, secretDir] = stack.pop()!;
    const facts = factsOf(dir);
    if (!facts) continue;
    // Only a marked file can stop the walk, unless each file must be asked about (toolbelt's
    // protected paths) or every file read is a problem (inside a secret directory).
    const everyFile = !ctx.confined && (!!ctx.isProtected || secretDir !== undefined);
    for (const name of everyFile ? facts.files : facts.marked) {
      const path = join(dir, name);
      if (!rules.reads(name, path, false, ignores)) continue;
      const why = rules.entryProblem(name, path, secretDir);
      if (why) return why;
    }
    for (const name of facts.dirs) {
      const path = join(dir, name);
      if (!rules.reads(name, path, true, ignores)) continue;
      // A secret directory (`.ssh/`, `.toolbelt/`) is a problem only if a file in it is read.
      const secret = secretDir ?? rules.dirSecret(name, path);
      const why = mode.split ? rules.entryProblem(name, path, undefined) : undefined;
      if (why) return why;
      stack.push([path, rules.ignoresAt(path, ignores), secret]);
    }
    for (const name of facts.links) {
      const path = join(dir, name);
      if (!rules.reads(name, path, false, ignores)) continue;
      const why =
        rules.entryProblem(name, path, secretDir) ??
        (mode.follow ? followLink(path, rules, seen, stack, ignores) : undefined);
      if (why) return why;
    }
  }
  return undefined;
}

function followLink(
  path: string,
  rules: Rules,
  seen: Set<string>,
  stack: [string, Ignores, string | undefined][],
  ignores: Ignores,
): string | undefined {
  const { roots } = rules.ctx;
  const rel = belowRoot(path, roots) ?? path;
  const real = realLoose(path);
  const target = belowRoot(real, roots);
  if (target === undefined) return `${rel} links to ${real}, outside the workspace`;
  if (!rules.ctx.confined && sensitiveReason(target, 'read')) return `${rel} links to a protected file`;
  if (seen.has(real)) return undefined;
  seen.add(real);
  if (lstatSync(real, { throwIfNoEntry: false })?.isDirectory()) stack.push([real, ignores, undefined]);
  return undefined;
}
