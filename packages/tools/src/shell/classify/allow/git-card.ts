// The git card: every rule the classifier has for git, named in one place.
//   read rule        allow/git.ts: global options, the subcommands that read and each one's option
//                    table, names of protected files; with the repository checks it calls:
//                    git-repo.ts (where the repository is, config that runs programs, hooks),
//                    git-history.ts (secrets anywhere in history or the index, for reads that print
//                    content from it), git-objects.ts with git-batch.ts (objects named directly),
//                    git-grep.ts (what `git grep` searches), git-stamp.ts (when history changed)
//   how much worse   commands/git.ts: the subcommand and its flags (write, destructive, code)
//   "always" prefix  the subcommands whose flags never make them destructive (below)
//   names printed    `git ls-files` for xargs and loops (below)
//   examples         below, classified by cards.test.ts in the safety tables' tree
import { git } from '../commands/git.js';
import type { Names } from '../producers.js';
import type { SimpleCommand } from '../types.js';
import type { Word } from '../words.js';
import type { Card } from './card.js';
import { gitSpec } from './git.js';

/** git subcommands whose flags never make them destructive: "always approve" remembers `git <sub>`. */
const GIT_SAFE = new Set([
  'status',
  'log',
  'diff',
  'show',
  'blame',
  'shortlog',
  'describe',
  'rev-parse',
  'ls-files',
  'ls-tree',
  'grep',
  'add',
  'commit',
  'fetch',
  'pull',
  'merge',
  'rebase',
  'cherry-pick',
  'revert',
  'init',
  'clone',
  'mv',
  'apply',
  'am',
]);

function prefixWords(cmd: SimpleCommand): number | undefined {
  const first = cmd.args[0];
  return first?.static && GIT_SAFE.has(first.value) ? 2 : undefined;
}

const DOT: Word = { value: '.', pattern: '.', static: true, source: '.' };
const LS_FILES =
  /^(-[cmodi]+|--(cached|modified|others|deleted|ignored|exclude-standard|directory|no-empty-directory|recurse-submodules))$/;

/** `git ls-files` (run where it is, names relative to it): -z, which files, pathspecs below. */
function gitFiles(cmd: SimpleCommand): Names | undefined {
  const [sub, ...rest] = cmd.args;
  if (sub?.value !== 'ls-files') return undefined;
  let nul = false;
  for (const w of rest) {
    if (!w.static) return undefined;
    if (w.value === '-z') nul = true;
    else if (
      !LS_FILES.test(w.value) &&
      (w.value.startsWith('-') ||
        w.value.startsWith(':') ||
        w.value.startsWith('/') ||
        w.value.split('/').includes('..'))
    )
      return undefined;
  }
  return { producer: 'git ls-files', starts: [DOT], follow: true, nul, bare: true };
}

export const GIT_CARD: Card = {
  names: ['git'],
  worst: 'destructive',
  spec: gitSpec,
  handler: git,
  prefixWords,
  printsNames: gitFiles,
  examples: {
    read: [
      'git --version',
      'cd repo && git status -sb',
      'cd repo && git log --oneline -5',
      'cd repo && git log -p',
      'cd repo && git show HEAD:a.txt',
      'cd repo && git diff --stat HEAD',
      'cd repo && git blame a.txt',
      'cd repo && git branch --list',
      'cd repo && git grep -n alpha',
      'cd repo && git ls-files | xargs wc -l',
      'cd repo && git cat-file -t HEAD',
      'cd repo && git format-patch --stdout -1',
      'cd objects && git log -p HEAD^!',
      'git -C repo log -1',
    ],
    asks: [
      'cd repo && git show HEAD:.env',
      'cd leaky && git log -p',
      'cd repo && git diff --output=x',
      'cd repo && git log --out=x',
      'git -C monitored status',
      'cd repo && git config user.name x',
    ],
    edit: ['cd repo && git add a.txt', 'cd repo && git commit -m fix', 'cd repo && git format-patch -1'],
    code: [
      'cd repo && git push',
      'cd repo && git push --force',
      'cd repo && git reset --hard',
      'cd repo && git fetch',
      'cd hooked && git commit -m x',
      'cd objects && git show --all',
      'git -c core.pager=sh log',
    ],
  },
};
