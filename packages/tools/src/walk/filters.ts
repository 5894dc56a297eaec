// Which files a search sees, decided as ripgrep decides: override globs first (an including glob
// even beats .gitignore), then the ignore files of this directory and its parents (.rgignore over
// .ignore over .gitignore; the nearest directory wins; .gitignore files above the first directory
// holding .git are not used), then file types. Symlinks are not followed; VCS directories and
// .toolbelt are skipped.
import { closeSync, existsSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { READ_FLAGS_FOLLOW } from '../workspace/special.js';
import { GitignoreMatcher, Overrides, type Verdict } from './gitignore.js';
import { TypeFilter } from './file-types.js';

export const IGNORE_FILES = { custom: '.rgignore', dot: '.ignore', git: '.gitignore' } as const;
/** Never searched: version-control internals and toolbelt's own state (logs of past calls). */
export const VCS_EXCLUDES = ['!.git', '!.hg', '!.svn', '!.toolbelt'] as const;

/** The ignore files of one directory. Directories with none (and no .git) get no level. */
export interface Level {
  dir: string;
  /** Length of `dir` plus its trailing slash: slicing an absolute path by it gives the relative path. */
  cut: number;
  custom?: GitignoreMatcher;
  dot?: GitignoreMatcher;
  git?: GitignoreMatcher;
  hasGit: boolean;
  parent: Level | undefined;
}

/** Ignore files over this size are not read (a real one is a few kilobytes). */
const MAX_RULES_BYTES = 16 * 1024 * 1024;

/**
 * An ignore file's rules. Like rg, a symlinked ignore file is followed; unlike rg, one that is not
 * a regular file (a named pipe would block the walk, a device never end) is not read.
 */
function readRules(path: string): GitignoreMatcher | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, READ_FLAGS_FOLLOW);
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_RULES_BYTES) return undefined;
    const m = GitignoreMatcher.parse(readFileSync(fd, 'utf8'));
    return m.empty ? undefined : m;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A level for `dir` when `has(name)` says one of the ignore files or .git is there. */
export function levelFor(dir: string, has: (name: string) => boolean, parent: Level | undefined): Level | undefined {
  const custom = has(IGNORE_FILES.custom) ? readRules(join(dir, IGNORE_FILES.custom)) : undefined;
  const dot = has(IGNORE_FILES.dot) ? readRules(join(dir, IGNORE_FILES.dot)) : undefined;
  const git = has(IGNORE_FILES.git) ? readRules(join(dir, IGNORE_FILES.git)) : undefined;
  const hasGit = has('.git');
  if (!custom && !dot && !git && !hasGit) return undefined;
  return {
    dir,
    cut: dir === '/' ? 1 : dir.length + 1,
    ...(custom ? { custom } : {}),
    ...(dot ? { dot } : {}),
    ...(git ? { git } : {}),
    hasGit,
    parent,
  };
}

/** The levels of the directories above `dir` (ripgrep reads them too), nearest last in the chain. */
export function ancestorLevels(dir: string): Level | undefined {
  const chain: string[] = [];
  for (let d = dirname(dir); ; d = dirname(d)) {
    chain.push(d);
    if (dirname(d) === d) break;
  }
  let level: Level | undefined;
  for (const d of chain.reverse()) {
    level = levelFor(d, (name) => existsSync(join(d, name)), level) ?? level;
  }
  return level;
}

/** The verdict of the ignore files in effect at a level for an absolute path. */
export function matchIgnore(
  level: Level | undefined,
  abs: string,
  isDir: boolean,
  name = abs.slice(abs.lastIndexOf('/') + 1),
): Verdict {
  let custom: Verdict;
  let dot: Verdict;
  let git: Verdict;
  let sawGit = false;
  for (let l = level; l; l = l.parent) {
    const rel = abs.slice(l.cut);
    if (custom === undefined && l.custom) custom = l.custom.matched(rel, isDir, name);
    if (dot === undefined && l.dot) dot = l.dot.matched(rel, isDir, name);
    if (!sawGit && git === undefined && l.git) git = l.git.matched(rel, isDir, name);
    sawGit ||= l.hasGit;
  }
  return custom ?? dot ?? git;
}

export interface FilterOptions {
  /** rg-style globs relative to the search directory (`*.ts`, `!*.test.ts`). */
  globs?: readonly string[];
  /** Globs for the type filter (see types.ts). */
  typeGlobs?: readonly string[];
  /** Honour .gitignore/.ignore/.rgignore. Default true. */
  ignoreFiles?: boolean;
}

const VCS_NAMES = new Set(VCS_EXCLUDES.map((g) => g.slice(1)));

export class SearchFilter {
  /** Override globs, or undefined when there are only the VCS exclusions (then a name lookup does). */
  readonly overrides: Overrides | undefined;
  readonly types: TypeFilter | undefined;
  readonly ignoreFiles: boolean;

  constructor(opts: FilterOptions = {}) {
    this.overrides = opts.globs?.length ? new Overrides([...opts.globs, ...VCS_EXCLUDES]) : undefined;
    this.types = opts.typeGlobs?.length ? new TypeFilter(opts.typeGlobs) : undefined;
    this.ignoreFiles = opts.ignoreFiles !== false;
  }

  /** True when the entry is searched (a file) or entered (a directory). */
  includes(rel: string, name: string, abs: string, isDir: boolean, level: Level | undefined): boolean {
    if (this.overrides) {
      const o = this.overrides.matched(rel, isDir, name);
      if (o === 'ignore') return false;
      if (o === 'whitelist') return true;
    } else if (VCS_NAMES.has(name)) {
      return false;
    }
    if (this.ignoreFiles && level && matchIgnore(level, abs, isDir, name) === 'ignore') return false;
    return !this.types || this.types.matched(name, isDir) !== 'ignore';
  }
}
