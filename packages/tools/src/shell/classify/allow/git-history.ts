// git history may hold a secret: a `.env` committed once and deleted since is still printed by
// `git log -p`, `git show`, `git diff-tree -p`, `git grep KEY HEAD~3`. A git read that prints file
// content from history (or the index) is a read only when no path in the repository's history, its
// reflogs or its index is a secret by the sensitive-file rules. The check lists every path once
// (`git log --all --reflog --name-only`, `git ls-files`), bounded in time and output, and is cached
// by the refs (`git show-ref --head`), the commits the reflogs name and the index's mtime (asked of
// git only when the .git files they come from changed: git-stamp.ts); when it
// cannot finish, the command asks. Objects named directly (a hash, a tag to a blob) are
// git-objects.ts's part.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { sensitiveReason } from '../../../workspace/sensitive.js';
import { has, type ParsedOption } from './getopt.js';
import { dotGitOf, historyStamp } from './git-stamp.js';

export const TIMEOUT_MS = 1_500;
const MAX_OUTPUT = 64 * 1024 * 1024;
const cache = new Map<string, string | undefined>();
const stamped = new Map<string, { stamp: string; key: string | undefined }>();

/** The arguments every git read of the classifier starts with: no fsmonitor, names unquoted. */
export function gitArgs(gitDir: string | undefined, args: string[]): string[] {
  return [
    '-c',
    'core.fsmonitor=false',
    '-c',
    'core.quotepath=false',
    ...(gitDir ? [`--git-dir=${gitDir}`] : []),
    ...args,
  ];
}

/** The environment of the classifier's git reads: no system config, no locks, no prompt, no pager. */
export function gitEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
  };
}

/** Runs a git read in the repository; its output, or undefined when it fails or takes too long. */
export function git(cwd: string, gitDir: string | undefined, args: string[], input?: string): string | undefined {
  const r = spawnSync('git', gitArgs(gitDir, args), {
    cwd,
    encoding: 'utf8',
    timeout: TIMEOUT_MS,
    maxBuffer: MAX_OUTPUT,
    env: gitEnv(),
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'ignore'],
    ...(input === undefined ? {} : { input }),
  });
  return r.status === 0 && !r.error ? r.stdout : undefined;
}

function indexStamp(gitDir: string | undefined, cwd: string): string {
  try {
    return String(statSync(join(gitDir ?? join(cwd, '.git'), 'index')).mtimeMs);
  } catch {
    return '';
  }
}

/**
 * Why the history of the repository at `cwd` is not safe to print: a secret-named path in it
 * (`.env was committed`), or the check could not finish. Undefined when no path in it is a secret.
 */
export function historyProblem(cwd: string, gitDir?: string): string | undefined {
  const key = historyKey(cwd, gitDir);
  if (key === undefined) return 'the repository could not be read';
  if (cache.has(key)) return cache.get(key);
  const why = check(cwd, gitDir);
  if (cache.size > 64) cache.clear();
  cache.set(key, why);
  return why;
}

/**
 * What the history of a repository is made of, as a cache key: its refs, the commits its reflogs
 * name (a reflog can be edited without moving a ref) and the index; undefined when it cannot be read.
 */
export function historyKey(cwd: string, gitDir?: string): string | undefined {
  // Asking git costs two processes; its answer is kept while the .git files it comes from stay as they were.
  const dotGit = dotGitOf(cwd, gitDir);
  const stamp = dotGit ? historyStamp(dotGit) : undefined;
  const id = `${cwd}\0${gitDir ?? ''}`;
  const kept = stamp ? stamped.get(id) : undefined;
  if (kept && kept.stamp === stamp) return kept.key;
  const key = gitHistoryKey(cwd, gitDir);
  if (stamp) {
    if (stamped.size > 64) stamped.clear();
    stamped.set(id, { stamp, key });
  }
  return key;
}

function gitHistoryKey(cwd: string, gitDir?: string): string | undefined {
  const refs = git(cwd, gitDir, ['show-ref', '--head']);
  if (refs === undefined && git(cwd, gitDir, ['rev-parse', '--git-dir']) === undefined) return undefined;
  const reflogs = git(cwd, gitDir, ['rev-list', '--no-walk', '--reflog']) ?? '';
  return createHash('sha256')
    .update(`${cwd}\0${gitDir ?? ''}\0${refs ?? ''}\0${reflogs}\0${indexStamp(gitDir, cwd)}`)
    .digest('hex');
}

function check(cwd: string, gitDir: string | undefined): string | undefined {
  // A replace ref makes an object print as another (a.txt's blob as a .env's): names no longer say what prints.
  const replaced = git(cwd, gitDir, ['for-each-ref', '--count=1', '--format=%(refname)', 'refs/replace/']);
  if (replaced === undefined) return 'its refs could not be read';
  if (replaced.trim()) return `it has replace refs (${replaced.trim()}), which print one object in place of another`;
  const log = git(cwd, gitDir, ['log', '--all', '--reflog', '-m', '--no-renames', '--name-only', '--format=', '-z']);
  if (log === undefined) return 'its history is too large to check for secrets in time';
  const index = git(cwd, gitDir, ['ls-files', '--cached', '-z']);
  if (index === undefined) return 'its index could not be read';
  for (const path of new Set(`${log}\0${index}`.split(/\0|\n/))) {
    if (!path) continue;
    const why = sensitiveReason(path, 'read');
    if (why) return `its history or index holds ${path} (${why}), which this command could print`;
  }
  return undefined;
}

const PATCH = [
  '-p',
  '-u',
  '-U',
  '-W',
  '-L',
  '-c',
  '--patch',
  '--unified',
  '--patch-with-raw',
  '--patch-with-stat',
  '--function-context',
  '--word-diff',
  '--color-words',
  '--cc',
  '--dd',
  '--remerge-diff',
  '--full-diff',
];
const NO_CONTENT = ['-t', '-s', '-e'];

/**
 * Whether a git read prints file content that may come from history or the index: patches
 * (`log -p`, `diff-tree -p`, any `diff`, `show`, `stash show -p`), `cat-file` contents, `grep` over
 * revisions or the index, `range-diff`.
 */
export function printsHistory(
  name: string,
  a: { options: ParsedOption[]; operands: { value: string }[] },
  verb?: string,
): boolean {
  switch (name) {
    case 'show':
    case 'diff':
    case 'range-diff':
      return true;
    case 'cat-file':
      return !has(a, ...NO_CONTENT);
    case 'grep': {
      // Any operand before `--` but the pattern may be a revision; --cached searches the index.
      const end = a.operands.findIndex((w) => w.value === '--');
      const before = end < 0 ? a.operands.length : end;
      return has(a, '--cached') || before > (has(a, '-e', '-f') ? 0 : 1);
    }
    case 'format-patch':
      return true;
    case 'stash':
      return verb === 'show' && has(a, ...PATCH);
    default:
      return has(a, ...PATCH);
  }
}
