// The history check (git-history.ts) sees what the refs, the reflogs and the index reach. A git
// read can print objects it never sees: a blob named by its hash (`git cat-file -p 3f2a…`, `git
// show 3f2a…`), a dangling commit (`git log -p 3f2a…`, a hand-written ORIG_HEAD), a tag pointing at
// a blob or a tree (`git show --all` prints it), objects named on stdin (`cat-file --batch`).
//
// The rule, for a read that prints content from history: every object it names must be a commit
// (or a tag of one) that the history check walked, i.e. reachable from a ref, HEAD or a reflog; a
// blob or tree is named only as `rev:path`, whose rev obeys the same rule and whose path the
// secret-name check has passed (`:path` names the index, which the history check lists). Anything
// else asks, so does anything that cannot be checked in time.
import { has, type ParsedOption } from './getopt.js';
import { resolveNames } from './git-batch.js';
import { git, historyKey } from './git-history.js';
import type { Word } from '../words.js';

/** Options that make a read name objects we cannot list before it runs. */
const UNSEEN: Record<string, string> = {
  '--stdin': 'reads the objects to print from stdin',
  '--alternate-refs': "prints history from another repository's refs",
  '--batch': 'prints the objects named on stdin',
  '--batch-command': 'prints the objects named on stdin',
};

/** For `git show`: every object these refs name is printed, a tag to a blob included. */
const REF_SETS = [
  '--all',
  '--branches',
  '--tags',
  '--remotes',
  '--glob',
  '--reflog',
  '--bisect',
  '--walk-reflogs',
  '-g',
];

const reachableCache = new Map<string, Set<string> | undefined>();

/** The commits the history check walks: `git rev-list --all --reflog`, cached like it. */
function reachable(cwd: string, gitDir: string | undefined): Set<string> | undefined {
  const key = historyKey(cwd, gitDir);
  if (key === undefined) return undefined;
  if (reachableCache.has(key)) return reachableCache.get(key);
  const out = git(cwd, gitDir, ['rev-list', '--all', '--reflog']);
  const set = out === undefined ? undefined : new Set(out.split('\n').filter(Boolean));
  if (reachableCache.size >= 4) reachableCache.clear();
  reachableCache.set(key, set);
  return set;
}

/** The words of a read that may name objects: operands before `--` (for grep, after the pattern). */
function revisionWords(name: string, a: { options: ParsedOption[]; operands: Word[] }): string[] {
  const end = a.operands.findIndex((w) => w.value === '--');
  const words = (end < 0 ? a.operands : a.operands.slice(0, end)).map((w) => w.value);
  return name === 'grep' && !has(a, '-e', '-f') ? words.slice(1) : words;
}

/** The revision part of a word, and whether it names a path in it (`rev:path`), or the index. */
function revisionOf(word: string): { rev: string; path: boolean } | 'index' | { why: string } {
  if (word.startsWith(':(')) return 'index'; // pathspec magic: a path, never an object
  if (word.startsWith(':/')) return { rev: word, path: false }; // the youngest commit whose message matches
  const colon = word.indexOf(':');
  if (colon < 0) return { rev: word, path: false };
  if (word.includes('..')) return { why: `${word} mixes a range and a path, which we do not take apart` };
  if (colon === 0) return 'index';
  return { rev: word.slice(0, colon), path: true };
}

/**
 * The revisions a revision word names, as git takes it apart (`a..b`, `a...b`, `^a`, `a^@`, `a^!`,
 * `a^-`): each part's parents and ancestors are reachable when the part is, so the parts stand for it.
 */
function revisionParts(rev: string): { parts: string[]; plain: boolean } {
  const base = (r: string) => r.replace(/\^(@|!|-\d*)$/, '') || 'HEAD';
  const bare = rev.replace(/^\^/, '');
  const range = /^(.*?)\.\.\.?(.*)$/.exec(bare);
  const parts = range ? [range[1], range[2]].map(base) : [base(bare)];
  return { parts, plain: !range && bare === rev && base(bare) === bare };
}

/** The commits the revision words name; or why one is not a commit we may print. */
function namedCommits(cwd: string, gitDir: string | undefined, key: string, words: string[]): string[] | string {
  const asked: { word: string; part: string; path: boolean; plain: boolean }[] = [];
  for (const word of words) {
    const r = revisionOf(word);
    if (r === 'index') continue;
    if ('why' in r) return r.why;
    const { parts, plain } = revisionParts(r.rev);
    for (const part of parts) asked.push({ word, part, path: r.path, plain });
  }
  if (!asked.length) return [];
  const names = asked.flatMap((a) => [a.part, `${a.part}^{commit}`]);
  const answers = resolveNames(cwd, gitDir, key, names);
  if (!answers) return 'the objects it names could not be checked';
  const commits: string[] = [];
  for (const [i, a] of asked.entries()) {
    const [self, commit] = [answers[2 * i], answers[2 * i + 1]];
    if (self === 'ambiguous') return `${a.word} is ambiguous`;
    // Not a revision: git takes a plain word as a path (checked by name) and prints no object for it.
    if (self === 'missing') {
      if (a.plain && !a.path) continue;
      return a.path ? `${a.word} names no commit` : `${a.word} could not be resolved`;
    }
    // Each must peel to a commit (a tag of a commit is fine; a blob, a tree or a tag of one is not).
    if (typeof commit === 'string' || commit.type !== 'commit')
      return `it names ${self.oid}, which is not a commit: it may print a file by its hash`;
    commits.push(commit.oid);
  }
  return commits;
}

/**
 * Why the objects a history-printing git read names are not known to be safe to print, or
 * undefined. `cwd`/`gitDir` locate the repository as for historyProblem.
 */
export function objectsProblem(
  cwd: string,
  gitDir: string | undefined,
  name: string,
  a: { options: ParsedOption[]; operands: Word[] },
): string | undefined {
  const unseen = a.options.find((o) => Object.hasOwn(UNSEEN, o.name));
  if (unseen) return `${unseen.name} ${UNSEEN[unseen.name]}`;
  if (name === 'show' && has(a, ...REF_SETS)) return 'it shows every object the refs name, and a tag may name a blob';
  const words = revisionWords(name, a);
  if (!words.length) return undefined;
  const key = historyKey(cwd, gitDir);
  if (key === undefined) return 'the repository could not be read';
  const commits = namedCommits(cwd, gitDir, key, words);
  if (typeof commits === 'string') return commits;
  if (!commits.length) return undefined;
  const seen = reachable(cwd, gitDir);
  if (!seen) return 'the commits of its history could not be listed in time';
  const unreachable = commits.find((oid) => !seen.has(oid));
  if (unreachable)
    return `it names commit ${unreachable}, which no ref or reflog reaches, so the history check never saw it`;
  return undefined;
}
