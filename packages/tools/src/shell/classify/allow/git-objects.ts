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
  const oids: string[] = [];
  for (const word of revisionWords(name, a)) {
    const r = revisionOf(word);
    if (r === 'index') continue;
    if ('why' in r) return r.why;
    const out = git(cwd, gitDir, ['rev-parse', '--revs-only', '--end-of-options', r.rev]);
    if (out === undefined) return `${word} could not be resolved`;
    const named = out.split('\n').filter(Boolean);
    // Not a revision: git takes it as a path (checked by name) and prints no object for it.
    if (!named.length && r.path) return `${word} names no commit`;
    oids.push(...named.map((o) => o.replace(/^\^/, '')));
  }
  if (!oids.length) return undefined;
  // Each must peel to a commit (a tag of a commit is fine; a blob, a tree or a tag of one is not).
  const peeled = git(
    cwd,
    gitDir,
    ['cat-file', '--batch-check=%(objectname) %(objecttype)'],
    oids.map((o) => `${o}^{commit}\n`).join(''),
  );
  if (peeled === undefined) return 'the objects it names could not be checked';
  const commits = peeled.split('\n').filter(Boolean);
  const bad = commits.findIndex((line) => !/^[0-9a-f]+ commit$/.test(line));
  if (bad >= 0 || commits.length !== oids.length)
    return `it names ${oids[Math.max(bad, 0)]}, which is not a commit: it may print a file by its hash`;
  const seen = reachable(cwd, gitDir);
  if (!seen) return 'the commits of its history could not be listed in time';
  const unreachable = commits.map((line) => line.split(' ')[0]).find((oid) => !seen.has(oid));
  if (unreachable)
    return `it names commit ${unreachable}, which no ref or reflog reaches, so the history check never saw it`;
  return undefined;
}
