// What `git grep` reads: the work-tree copies of tracked files (with --untracked, also the untracked
// files git does not ignore), never the rest of the tree. Outside the sandbox, those are listed by
// git itself (`git ls-files`) and checked by name; in the sandbox, where the roots' secrets read as
// empty, nothing is listed.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { sensitiveReason } from '../../../workspace/sensitive.js';
import type { Scope } from '../types.js';
import type { Word } from '../words.js';
import { has } from './getopt.js';
import { git } from './git-history.js';
import { no, OK, type Args, type Verdict } from './spec.js';

const cache = new Map<string, string | undefined>();

function indexStamp(root: string, gitDir: string | undefined): string | undefined {
  try {
    return String(statSync(join(gitDir ?? join(root, '.git'), 'index')).mtimeMs);
  } catch {
    return undefined;
  }
}

/** The first file git would grep that is a secret by name, or why the list could not be had. */
function listedProblem(root: string, gitDir: string | undefined, untracked: boolean): string | undefined {
  const stamp = untracked ? undefined : indexStamp(root, gitDir);
  const key = `${root}\0${gitDir ?? ''}\0${stamp}`;
  if (stamp !== undefined && cache.has(key)) return cache.get(key);
  const out = git(root, gitDir, [
    'ls-files',
    '-z',
    '--cached',
    ...(untracked ? ['--others', '--exclude-standard'] : []),
  ]);
  let why: string | undefined;
  if (out === undefined) why = 'the files git would search could not be listed in time';
  else {
    for (const path of out.split('\0')) {
      const secret = path && sensitiveReason(path, 'read');
      if (secret) {
        why = `it would read ${path}: ${secret}`;
        break;
      }
    }
  }
  if (cache.size > 64) cache.clear();
  if (stamp !== undefined) cache.set(key, why);
  return why;
}

/** git grep over the work tree: the paths it is given must be ours, and what it reads no secret. */
export function gitGrepReads(a: Args, root: string | undefined, gitDir: string | undefined, scope: Scope): Verdict {
  const patterned = has(a, '-e', '-f');
  const paths = (patterned ? a.operands : a.operands.slice(1)).filter((w) => w.value !== '--');
  for (const w of paths.filter((p) => !p.value.startsWith(':'))) {
    const why = scope.readProblem(w);
    if (why) return no(why);
  }
  if (scope.confined) return OK;
  if (!root) {
    // No work tree known: walk what it could read, as grep -r would.
    const base: Word = { value: '.', pattern: '.', static: true, source: '.' };
    const why = scope.readProblem(base, { follow: false, skipHidden: false });
    return why ? no(why) : OK;
  }
  // Pathspecs narrow what is read, and magic (`:/`, `:!x`) may widen it: every listed file is checked.
  const why = listedProblem(root, gitDir, has(a, '--untracked'));
  return why ? no(why) : OK;
}
