// git reads: a subcommand we list, each option one of its harmless ones (exact names: git accepts
// abbreviations, but we do not hold every option of every subcommand, so an abbreviation asks), no
// computed word, nothing that names a secret (`HEAD:.env`), and a repository inside the workspace
// whose own config runs nothing. Everything else goes to the git handler, which decides how much
// worse than a read it is.
import { posix } from 'node:path';
import { sensitiveReason } from '../../../workspace/sensitive.js';
import type { Scope, SimpleCommand } from '../types.js';
import type { Word } from '../words.js';
import { getopt, has, table, type OptionTable } from './getopt.js';
import { historyProblem, printsHistory } from './git-history.js';
import { gitGrepReads } from './git-grep.js';
import { objectsProblem } from './git-objects.js';
import { repoFacts } from './git-repo.js';
import { belowRoot, realLoose } from './tree.js';
import { no, OK, type Args, type ReadSpec, type Verdict } from './spec.js';

const DIFF =
  'p u s z R a b w W patch no-patch unified= raw patch-with-raw patch-with-stat stat? numstat shortstat dirstat? cumulative dirstat-by-file? summary name-only name-status submodule? color? no-color color-moved? no-color-moved color-moved-ws= word-diff? word-diff-regex= color-words? no-renames rename-empty no-rename-empty check full-index binary abbrev? break-rewrites? find-renames? find-copies? find-copies-harder irreversible-delete diff-filter= pickaxe-all pickaxe-regex relative? no-relative text ignore-cr-at-eol ignore-space-at-eol ignore-space-change ignore-all-space ignore-blank-lines ignore-matching-lines= inter-hunk-context= function-context exit-code quiet no-ext-diff no-textconv ignore-submodules? src-prefix= dst-prefix= no-prefix default-prefix line-prefix= ita-invisible-in-index ita-visible-in-index minimal patience histogram anchored= diff-algorithm= compact-summary indent-heuristic no-indent-heuristic output-indicator-new= output-indicator-old= output-indicator-context= merge-base cached staged diff-merges= no-diff-merges combined-all-paths cc dd remerge-diff';
const LOG =
  'max-count= skip= since= after= until= before= author= committer= grep= grep-reflog= all-match invert-grep regexp-ignore-case basic-regexp extended-regexp fixed-strings perl-regexp merges no-merges min-parents= max-parents= no-min-parents no-max-parents first-parent exclude-first-parent-only not all branches? tags? remotes? glob= exclude= reflog alternate-refs single-worktree ignore-missing bisect stdin cherry-mark cherry-pick left-only right-only cherry walk-reflogs merge boundary simplify-by-decoration full-history dense sparse simplify-merges ancestry-path? show-pulls topo-order date-order author-date-order reverse no-walk? do-walk pretty? format= abbrev-commit no-abbrev-commit oneline encoding= expand-tabs? no-expand-tabs notes? no-notes show-notes? show-notes-by-default standard-notes no-standard-notes show-signature relative-date date= parents children left-right graph show-linear-break? follow decorate? no-decorate decorate-refs= decorate-refs-exclude= clear-decorations source mailmap no-mailmap use-mailmap no-use-mailmap full-diff log-size';

function git(short: string, long: string): OptionTable {
  return table(short, long, { numeric: true });
}

const specs: Record<string, OptionTable> = {
  status: git(
    'sbvzu?',
    'short branch show-stash porcelain? long verbose untracked-files? ignore-submodules? ignored? column? no-column ahead-behind no-ahead-behind renames no-renames find-renames? null',
  ),
  log: git('pusRabwWmctzL:n:M?C?S:G:O@', `${DIFF} ${LOG}`),
  show: git('pusRabwWmctzn:M?C?S:G:O@', `${DIFF} ${LOG}`),
  whatchanged: git('pusRabwWmctzn:', `${DIFF} ${LOG}`),
  diff: git('pusznRabwWM?C?S:G:O@', `${DIFF} !no-index !ext-diff !textconv !output=`),
  'diff-tree': git('pusznRabwWrtmcvM?C?S:G:', `${DIFF} root stdin no-commit-id always`),
  'diff-files': git('pusznRabwWq0123', `${DIFF}`),
  'diff-index': git('pusznRabwWm', `${DIFF}`),
  'range-diff': git('pusz', `${DIFF} creation-factor= no-dual-color left-only right-only`),
  shortlog: git('nsecw?', `numbered summary email committer group= format= ${LOG}`),
  'rev-list': git('n:', `${LOG} count objects objects-edge objects-edge-aggressive disk-usage? header timestamp`),
  blame: git(
    'bclnpstwefML:S@C?M?',
    'root show-stats score-debug show-name show-number porcelain line-porcelain incremental contents=@ date= progress no-progress minimal reverse first-parent ignore-rev= ignore-revs-file=@ color-lines color-by-age abbrev= encoding= show-email',
  ),
  annotate: git(
    'bclnpstwefML:S@C?M?',
    'root show-stats show-name show-number porcelain line-porcelain incremental contents=@ date= minimal reverse first-parent abbrev= encoding= show-email',
  ),
  'ls-files': git(
    'cdmoiskutvfzx:X@',
    'cached deleted modified others ignored stage killed unmerged directory no-empty-directory eol exclude= exclude-from=@ exclude-per-directory= exclude-standard error-unmatch with-tree= full-name recurse-submodules abbrev? debug deduplicate sparse format= resolve-undo',
  ),
  'ls-tree': git('drtlz', 'long name-only name-status object-only full-name full-tree abbrev? format='),
  'rev-parse': git(
    'q',
    'abbrev-ref? short? verify quiet show-toplevel show-prefix show-cdup git-dir git-common-dir absolute-git-dir is-inside-work-tree is-inside-git-dir is-bare-repository is-shallow-repository symbolic symbolic-full-name all branches? tags? remotes? glob= exclude= since= after= until= before= default= local-env-vars path-format= show-object-format? show-superproject-working-tree sq sq-quote revs-only no-revs flags no-flags disambiguate= git-path= shared-index-path show-ref-format',
  ),
  describe: git(
    '',
    'all tags contains abbrev= candidates= exact-match debug long match= exclude= always first-parent dirty? broken?',
  ),
  'cat-file': git(
    'tsepZ',
    'batch? batch-check? batch-command? batch-all-objects follow-symlinks buffer unordered allow-unknown-type mailmap no-mailmap use-mailmap !textconv !filters path=',
  ),
  'for-each-ref': git(
    's',
    'format= sort= count= points-at= merged? no-merged? contains? no-contains? shell perl python tcl color? ignore-case omit-empty exclude= include-root-refs',
  ),
  'show-ref': git('dsq', 'head heads tags branches verify dereference hash? abbrev? quiet exists exclude-existing?'),
  'merge-base': git('a', 'all octopus independent is-ancestor fork-point'),
  'name-rev': git('', 'tags refs= exclude= all annotate-stdin name-only no-undefined always'),
  'count-objects': git('vH', 'verbose human-readable'),
  'check-ignore': git('qvnz', 'quiet verbose non-matching no-index stdin'),
  'check-attr': git('az', 'all cached stdin source='),
  'check-ref-format': git('', 'branch normalize allow-onelevel no-allow-onelevel refspec-pattern'),
  'verify-commit': git('v', 'verbose raw'),
  'verify-tag': git('v', 'verbose raw format='),
  cherry: git('v', 'abbrev?'),
  'show-branch': git(
    'agr',
    'all remotes topo-order date-order current color? no-color sparse more= list merge-base independent no-name sha1-name topics reflog?',
  ),
  fsck: git(
    '',
    'unreachable dangling no-dangling root tags cache no-reflogs full no-full strict verbose connectivity-only name-objects progress no-progress',
  ),
  grep: git(
    'iIvwnlLcohHEFGPzqaWe:f@A:B:C:',
    'cached untracked no-exclude-standard exclude-standard recurse-submodules text no-textconv ignore-case max-depth= recursive word-regexp invert-match full-name extended-regexp basic-regexp perl-regexp fixed-strings line-number column files-with-matches name-only files-without-match null only-matching count color? no-color break heading show-function context= after-context= before-context= function-context threads= and or not all-match quiet max-count= !no-index !open-files-in-pager? !textconv O!',
  ),
  // A read only with --stdout (checked in gitRead); -o names where the files go (the handler's part).
  'format-patch': git(
    'pusRabwWnNkqso:v:',
    `${DIFF} stdout numbered no-numbered start-number= keep-subject cover-letter no-cover-letter subject-prefix= rfc? reroll-count= to= cc= no-to no-cc from? add-header= signature= no-signature signature-file=@ base= zero-commit no-binary no-stat suffix= ignore-if-in-upstream always notes? no-notes thread? no-thread in-reply-to= attach? inline? no-attach encode-email-headers no-encode-email-headers signoff root progress no-progress output-directory= max-count= skip= since= until= author= first-parent no-merges`,
  ),
  version: git('', 'build-options'),
  'check-mailmap': git('', 'mailmap-file=@ mailmap-blob='),
  'get-tar-commit-id': git('', ''),
};

/** Subcommands whose reads depend on a verb or a mode. */
const LIST_ONLY: Record<string, OptionTable> = {
  branch: git(
    'arlvi',
    'all remotes list verbose show-current contains? no-contains? merged? no-merged? points-at= sort= format= column? no-column color? no-color abbrev= no-abbrev ignore-case omit-empty',
  ),
  tag: git(
    'lniv',
    'list contains? no-contains? merged? no-merged? points-at= sort= format= column? no-column color? ignore-case omit-empty verify',
  ),
};

const SECRET_WORD = (w: Word): string | undefined => {
  // `HEAD:.env`, `:.env` (the index) and plain pathspecs all name files.
  const path = w.value.startsWith(':(')
    ? w.value.replace(/^:\([^)]*\)/, '')
    : w.value.includes(':')
      ? w.value.slice(w.value.indexOf(':') + 1)
      : w.value;
  const clean = posix.normalize(path.replace(/^\/+/, ''));
  return clean && clean !== '.' ? sensitiveReason(clean, 'read') : undefined;
};

/** Global options before the subcommand: where the repository is, and anything that runs code. */
function globals(args: Word[], scope: Scope): { rest: Word[]; dir?: string; gitDir?: string } | { why: string } {
  let dir = scope.cwd;
  let gitDir: string | undefined;
  let i = 0;
  const resolveIn = (w: Word | undefined, what: string): string | { why: string } => {
    if (!w) return { why: `${what} needs a value` };
    const why = scope.readProblem(w);
    if (why) return { why: `${what}: ${why}` };
    const abs = scope.resolve(w);
    return abs ?? { why: `${what} ${w.source} cannot be resolved` };
  };
  for (; i < args.length; i++) {
    const w = args[i];
    const v = w.value;
    if (!w.static) return { why: `${w.source} is computed` };
    if (!v.startsWith('-')) break;
    if (v === '-C') {
      const r = resolveIn(args[++i], '-C');
      if (typeof r !== 'string') return r;
      dir = r;
    } else if (v === '--git-dir' || v.startsWith('--git-dir=') || v === '--work-tree' || v.startsWith('--work-tree=')) {
      const word = v.includes('=') ? { ...w, value: v.slice(v.indexOf('=') + 1) } : args[++i];
      const r = resolveIn(word, v.replace(/=.*/, ''));
      if (typeof r !== 'string') return r;
      if (v.startsWith('--git-dir')) gitDir = r;
    } else if (
      !/^(--no-pager|-P|--no-replace-objects|--no-optional-locks|--no-lazy-fetch|--literal-pathspecs|--glob-pathspecs|--noglob-pathspecs|--icase-pathspecs|--bare|--no-advice)$/.test(
        v,
      )
    ) {
      return {
        why: `git ${v} ${v === '-c' || v.startsWith('--config') ? 'sets configuration, which can run programs' : 'is not an option we know to be harmless'}`,
      };
    }
  }
  return { rest: args.slice(i), ...(dir ? { dir } : {}), ...(gitDir ? { gitDir } : {}) };
}

function subcommand(
  name: string,
  rest: Word[],
): { table: OptionTable; check?(a: Args): string | undefined } | undefined {
  if (Object.hasOwn(specs, name)) return { table: specs[name] };
  const verb = rest.find((w) => !w.value.startsWith('-'))?.value;
  switch (name) {
    case 'branch':
    case 'tag':
      return {
        table: LIST_ONLY[name],
        check: (a) => (a.operands.length && !has(a, '-l', '--list') ? 'it creates a branch or tag' : undefined),
      };
    case 'stash':
      if (verb === 'list') return { table: specs.log };
      if (verb === 'show') return { table: git('pusznRabwWu', `${DIFF} include-untracked only-untracked`) };
      return undefined;
    case 'remote':
      if (!verb) return { table: git('v', 'verbose') };
      if (verb === 'get-url') return { table: git('', 'push all') };
      if (verb === 'show')
        return {
          table: git('n', ''),
          check: (a) => (has(a, '-n') ? undefined : 'git remote show contacts the remote; add -n'),
        };
      return undefined;
    case 'config':
      return {
        table: git(
          'zl',
          'get get-all get-regexp get-urlmatch get-color get-colorbool list local worktree name-only show-origin show-scope includes no-includes type= bool int bool-or-int path expiry-date null default=',
        ),
        check: (a) =>
          has(a, '-l', '--list') && !has(a, '--local', '--worktree')
            ? "it prints every setting, the user's included"
            : a.operands.length > 1 && !has(a, '--get-regexp', '--get-all', '--get', '--get-urlmatch')
              ? 'it sets a value'
              : undefined,
      };
    case 'reflog':
      // `git reflog REF` is `git reflog show REF`; expire, delete and drop change it.
      return !verb || !['expire', 'delete', 'drop'].includes(verb) ? { table: specs.log } : undefined;
    case 'clean':
      // Only with -n: it names what it would delete.
      return {
        table: git('ndqxXe:', 'dry-run quiet exclude='),
        check: (a) => (has(a, '-n', '--dry-run') ? undefined : 'it deletes untracked files'),
      };
    case 'worktree':
      return verb === 'list' ? { table: git('vz', 'porcelain verbose') } : undefined;
    case 'notes':
      // `notes show` prints a blob, which `notes add -C` may have made of any object: not listed.
      return !verb || verb === 'list' ? { table: git('', 'ref=') } : undefined;
    case 'sparse-checkout':
      return verb === 'list' ? { table: git('', '') } : undefined;
    case 'bisect':
      return verb === 'log' ? { table: git('', '') } : undefined;
    case 'submodule':
      return verb === 'status' ? { table: git('q', 'cached recursive quiet') } : undefined;
  }
  return undefined;
}

const VERB_COMMANDS = new Set([
  'stash',
  'remote',
  'reflog',
  'worktree',
  'submodule',
  'notes',
  'sparse-checkout',
  'bisect',
]);
const VERBS = new Set(['list', 'show', 'get-url', 'status', 'log']);

/**
 * Whether a git command reads only what it may. `patchFiles`: judge `git format-patch` that writes
 * its patches to files (whose content must pass the same history checks as `--stdout`, since the
 * files are read later without asking); where they go is the handler's part.
 */
export function gitRead(cmd: SimpleCommand, scope: Scope, patchFiles = false): Verdict {
  // `git --version` and `git --help` alone print text and read no repository.
  if (cmd.args.length === 1 && cmd.args[0].static && /^(--version|--help|-v|-h)$/.test(cmd.args[0].value)) return OK;
  const g = globals(cmd.args, scope);
  if ('why' in g) return no(g.why);
  if (!g.rest.length) return OK; // usage
  const name = g.rest[0].value;
  const sub = subcommand(name, g.rest.slice(1));
  if (!sub) return no(`git ${name} is not a read we know`);
  let rest = g.rest.slice(1);
  if (rest[0] && VERBS.has(rest[0].value) && VERB_COMMANDS.has(name)) rest = rest.slice(1);
  const parsed = getopt(rest, sub.table);
  if (!parsed.ok) return no(parsed.why);
  const unsafe = parsed.options.find((o) => o.info.unsafe);
  if (unsafe) return no(`git ${name} ${unsafe.name} is not read-only`);
  for (const o of parsed.options) {
    if (o.info.kind === 'path' && o.value) {
      const why = scope.readProblem(o.value);
      if (why) return no(why);
    }
    if (o.value && !o.value.static) return no(`${o.value.source} is computed`);
  }
  const dynamic = parsed.operands.find((w) => !w.static);
  if (dynamic) return no(`${dynamic.source} is computed`);
  const secret = parsed.operands.map((w) => [w, SECRET_WORD(w)] as const).find(([, why]) => why);
  if (secret) return no(`${secret[0].source} names a protected file: ${secret[1]}`);
  const why =
    sub.check?.(parsed) ??
    (name === 'format-patch' && !patchFiles && !has(parsed, '--stdout') ? 'it writes patch files' : undefined);
  if (why) return no(why);
  if (!g.dir && !g.gitDir) return no('the directory git runs in is not known');
  if (g.dir && belowRoot(realLoose(g.dir), scope.roots) === undefined)
    return no(`git would run in ${g.dir}, outside the workspace`);
  const repo = repoFacts(g.dir ?? scope.roots[0], scope.roots, g.gitDir);
  if (repo.problem) return no(repo.problem);
  // No repository found: git fails without printing anything.
  if (repo.gitDir && printsHistory(name, parsed, g.rest[1]?.value)) {
    const [cwd, gitDir] = [repo.root ?? g.dir ?? scope.roots[0], repo.root ? undefined : repo.gitDir];
    const why = historyProblem(cwd, gitDir) ?? objectsProblem(cwd, gitDir, name, parsed);
    if (why) return no(`git ${name} prints content from history: ${why}`);
  }
  if (name === 'grep') return gitGrepReads(parsed, repo.root, repo.root ? undefined : repo.gitDir, scope);
  return OK;
}

export const gitSpec: ReadSpec = { operands: 'data', check: (cmd, _a, scope) => gitRead(cmd, scope) };
