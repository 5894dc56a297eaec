// One ignore file (.gitignore, .ignore, .rgignore) or one list of override globs, parsed the way
// ripgrep's `ignore` crate does, so the JS engine skips exactly the files rg skips: the last
// matching line wins, `!` re-includes, a trailing `/` matches directories only, a pattern with a
// slash is anchored to the file's directory, and one without matches at any depth.
import picomatch from 'picomatch';

export type Verdict = 'ignore' | 'whitelist' | undefined;

interface Rule {
  re: RegExp;
  whitelist: boolean;
  dirOnly: boolean;
  /** The pattern has no slash: it is tested against the last path component only (same result, shorter string). */
  base: boolean;
}

export interface GlobOptions {
  caseInsensitive?: boolean;
}

/** Compiles one gitignore line, or undefined for blanks and comments. */
function compileLine(raw: string, opts: GlobOptions = {}): Rule | undefined {
  let line = raw;
  if (line.startsWith('#')) return undefined;
  if (!line.endsWith('\\ ')) line = line.trimEnd();
  if (line === '') return undefined;
  let whitelist = false;
  let absolute = false;
  if (line.startsWith('\\!') || line.startsWith('\\#')) {
    line = line.slice(1);
    absolute = line.startsWith('/');
  } else {
    if (line.startsWith('!')) {
      whitelist = true;
      line = line.slice(1);
    }
    if (line.startsWith('/')) {
      line = line.slice(1);
      absolute = true;
    }
  }
  let dirOnly = false;
  if (line.endsWith('/')) {
    dirOnly = true;
    line = line.slice(0, -1);
    if (line.endsWith('\\')) line = line.slice(0, -1);
  }
  if (line === '') return undefined;
  const options = { dot: true, noextglob: true, nonegate: true, nocase: opts.caseInsensitive === true };
  // ripgrep matches a slash-free pattern as `**/pattern`; since `*` never crosses a slash, that is
  // the same as matching the last component alone.
  if (!absolute && !line.includes('/')) return { re: picomatch.makeRe(line, options), whitelist, dirOnly, base: true };
  let glob = line;
  // `dir/**` must match what is inside dir, not dir itself.
  if (glob.endsWith('/**')) glob = `${glob}/*`;
  return { re: picomatch.makeRe(glob, options), whitelist, dirOnly, base: false };
}

export class GitignoreMatcher {
  private readonly rules: Rule[];

  constructor(lines: readonly string[], opts: GlobOptions = {}) {
    this.rules = [];
    for (const line of lines) {
      const rule = compileLine(line, opts);
      if (rule) this.rules.push(rule);
    }
  }

  static parse(text: string, opts: GlobOptions = {}): GitignoreMatcher {
    return new GitignoreMatcher(text.split(/\r?\n/), opts);
  }

  get empty(): boolean {
    return this.rules.length === 0;
  }

  get hasWhitelist(): boolean {
    return this.rules.some((r) => r.whitelist);
  }

  /** The verdict of the last rule that matches `rel` (relative to the file's directory, `/`-separated). */
  matched(rel: string, isDir: boolean, name = rel.slice(rel.lastIndexOf('/') + 1)): Verdict {
    for (let i = this.rules.length - 1; i >= 0; i--) {
      const rule = this.rules[i];
      if (rule.dirOnly && !isDir) continue;
      if (rule.re.test(rule.base ? name : rel)) return rule.whitelist ? 'whitelist' : 'ignore';
    }
    return undefined;
  }
}

/**
 * ripgrep's --glob overrides: a glob includes, `!glob` excludes, the last match wins, and once any
 * including glob is given, a file that matches none is excluded (directories are still entered).
 */
export class Overrides {
  private readonly matcher: GitignoreMatcher;
  private readonly anyInclude: boolean;

  constructor(globs: readonly string[], opts: GlobOptions = {}) {
    this.matcher = new GitignoreMatcher(globs, opts);
    this.anyInclude = globs.some((g) => !g.startsWith('!') && g.trim() !== '');
  }

  matched(rel: string, isDir: boolean, name?: string): Verdict {
    if (this.matcher.empty) return undefined;
    const m = this.matcher.matched(rel, isDir, name);
    // Override globs are gitignore lines read the other way round.
    if (m === 'ignore') return 'whitelist';
    if (m === 'whitelist') return 'ignore';
    return this.anyInclude && !isDir ? 'ignore' : undefined;
  }
}
