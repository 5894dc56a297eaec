// git: the subcommand decides, and a few flags turn a write into history loss.
import { hasFlag, hasLongPrefix, parseOptions, type Options } from '../options.js';
import { destroy, execute, read, write, type Finding, type Handler, type Scope, type SimpleCommand } from '../types.js';
import type { Word } from '../words.js';
import { repoFacts } from '../allow/git-repo.js';
import { gitRead } from '../allow/git.js';

const READ_SUBCOMMANDS = new Set([
  'status',
  'log',
  'diff',
  'show',
  'blame',
  'annotate',
  'shortlog',
  'describe',
  'rev-parse',
  'rev-list',
  'ls-files',
  'ls-tree',
  'ls-remote',
  'cat-file',
  'whatchanged',
  'name-rev',
  'merge-base',
  'count-objects',
  'for-each-ref',
  'show-ref',
  'show-branch',
  'cherry',
  'range-diff',
  'verify-commit',
  'verify-tag',
  'check-ignore',
  'check-attr',
  'check-ref-format',
  'help',
  'version',
  'var',
  'diff-tree',
  'diff-files',
  'diff-index',
  'grep',
  'fsck',
  'get-tar-commit-id',
]);

const WRITE_SUBCOMMANDS = new Set([
  'add',
  'commit',
  'mv',
  'merge',
  'rebase',
  'cherry-pick',
  'revert',
  'init',
  'am',
  'apply',
  'notes',
  'worktree',
  'sparse-checkout',
  'bisect',
  'repack',
  'bundle',
  'restore-staged',
]);
/** These reach another host, or run programs by design. */
const RUNS = new Map<string, string>([
  ['fetch', 'uses the network'],
  ['pull', 'uses the network'],
  ['clone', 'uses the network'],
  ['ls-remote', 'uses the network'],
  ['send-email', 'uses the network'],
  ['request-pull', 'uses the network'],
  ['svn', 'uses the network'],
  ['p4', 'uses the network'],
  ['archive', 'may reach a remote and writes an archive'],
  ['difftool', 'runs a diff program'],
  ['mergetool', 'runs a merge program'],
  ['lfs', 'runs git-lfs, which uses the network'],
  ['maintenance', 'runs scheduled maintenance'],
  ['submodule', 'runs commands in submodules or fetches them'],
  ['daemon', 'serves the repository'],
  ['instaweb', 'starts a web server'],
  ['credential', 'handles credentials'],
]);
/** Subcommands that run the repository's hooks. */
const HOOKED = new Set([
  'commit',
  'merge',
  'rebase',
  'checkout',
  'switch',
  'am',
  'cherry-pick',
  'revert',
  'pull',
  'push',
  'worktree',
]);

/** Global options that take a value (`git -C dir status`). */
const GLOBAL_WITH_ARG = new Set(['-C', '--git-dir', '--work-tree', '--namespace', '--super-prefix']);

function sub(args: Word[]): { name: string | undefined; rest: Word[]; risky?: string; dir?: Word } {
  let i = 0;
  let risky: string | undefined;
  let dir: Word | undefined;
  while (i < args.length) {
    const a = args[i].value;
    if (a === '-c' || a === '--config-env' || a.startsWith('--config-env=') || a.startsWith('--exec-path=')) {
      risky = 'sets git configuration, which can run programs';
      i += a.includes('=') ? 1 : 2;
      continue;
    }
    if (
      a === '--git-dir' ||
      a.startsWith('--git-dir=') ||
      a === '--work-tree' ||
      a.startsWith('--work-tree=') ||
      a === '--exec-path' ||
      a.startsWith('--exec-path')
    ) {
      risky = 'points git at another repository or programs';
      i += a.includes('=') ? 1 : 2;
      continue;
    }
    if (a === '-C') dir = args[i + 1];
    if (GLOBAL_WITH_ARG.has(a)) {
      i += 2;
      continue;
    }
    if (a.startsWith('-')) {
      i++;
      continue;
    }
    break;
  }
  const name = args[i];
  return {
    name: name?.static ? name.value : name ? '\u0000' : undefined,
    rest: args.slice(i + 1),
    ...(risky ? { risky } : {}),
    ...(dir ? { dir } : {}),
  };
}

const opts = (rest: Word[]): Options =>
  parseOptions(rest, {
    shortArgs: 'mCcFbBuSoX',
    longArgs: [
      'message',
      'file',
      'author',
      'date',
      'upstream',
      'onto',
      'strategy',
      'reuse-message',
      'squash',
      'fixup',
      'format',
      'pretty',
      'since',
      'until',
      'grep',
      'depth',
      'branch',
      'origin',
      'template',
      'separate-git-dir',
      'reference',
      'repo',
      'receive-pack',
      'exec',
      'push-option',
      'signed',
      'recurse-submodules',
      'set-upstream-to',
    ],
  });

function byName(cmd: SimpleCommand, name: string, o: Options): Finding[] {
  switch (name) {
    case 'push': {
      if (
        hasFlag(o, 'f', ['force', 'mirror', 'delete', 'prune']) ||
        hasLongPrefix(o, ['force-with-lease', 'force-if-includes']) ||
        o.short.has('d')
      ) {
        return destroy(cmd, 'force push or remote delete rewrites remote history');
      }
      if (o.positional.slice(1).some((w) => w.value.startsWith('+') || w.value.startsWith(':')))
        return destroy(cmd, 'forced or deleting refspec');
      if (o.long.has('receive-pack') || o.long.has('exec')) return execute(cmd, 'runs a program on the remote');
      return execute(cmd, 'publishes commits to a remote');
    }
    case 'reset':
      if (hasFlag(o, '', ['hard', 'merge', 'keep'])) return destroy(cmd, 'discards uncommitted changes');
      return write(cmd);
    case 'clean':
      if (hasFlag(o, 'n', ['dry-run'])) return read(cmd);
      return destroy(cmd, 'deletes untracked files');
    case 'checkout':
      if (hasFlag(o, 'fp', ['force', 'patch']) || o.positional.some((w) => w.value === '.') || hasDoubleDash(cmd)) {
        return destroy(cmd, 'discards changes to files');
      }
      return write(cmd);
    case 'restore':
      if ((o.short.has('S') || o.long.has('staged')) && !(o.short.has('W') || o.long.has('worktree')))
        return write(cmd);
      return destroy(cmd, 'discards changes to files');
    case 'switch':
      if (hasFlag(o, 'fC', ['discard-changes', 'force', 'force-create']))
        return destroy(cmd, 'discards changes or resets a branch');
      return write(cmd);
    case 'rm':
      return destroy(cmd, 'deletes files');
    case 'branch': {
      if (
        o.short.has('D') ||
        (o.short.has('d') && hasFlag(o, 'f', ['force'])) ||
        (hasFlag(o, '', ['delete']) && hasFlag(o, 'f', ['force']))
      ) {
        return destroy(cmd, 'deletes a branch that may not be merged');
      }
      if (hasFlag(o, 'dmMcCu', ['delete', 'move', 'copy', 'set-upstream-to', 'unset-upstream', 'edit-description']))
        return write(cmd);
      if (o.short.has('f') || o.long.has('force')) return destroy(cmd, 'resets a branch');
      return o.positional.length && !hasFlag(o, 'l', ['list', 'contains', 'merged', 'no-merged', 'points-at'])
        ? write(cmd)
        : read(cmd);
    }
    case 'tag':
      if (
        o.positional.length === 0 ||
        hasFlag(o, 'lvn', ['list', 'verify', 'contains', 'points-at', 'merged', 'no-merged'])
      )
        return read(cmd);
      if (o.short.has('f') || o.long.has('force')) return destroy(cmd, 'moves an existing tag');
      return write(cmd);
    case 'stash': {
      const verb = o.positional[0]?.value;
      if (verb === 'list' || verb === 'show') return read(cmd);
      if (verb === 'drop' || verb === 'clear') return destroy(cmd, 'deletes stashed changes');
      return write(cmd);
    }
    case 'config':
      if (
        hasFlag(o, 'l', [
          'list',
          'get',
          'get-all',
          'get-regexp',
          'get-urlmatch',
          'get-color',
          'get-colorbool',
          'show-origin',
          'show-scope',
        ]) ||
        o.positional[0]?.value === 'get' ||
        o.positional[0]?.value === 'list'
      ) {
        return read(cmd);
      }
      if (
        o.positional.length === 1 &&
        !hasFlag(o, '', ['unset', 'unset-all', 'add', 'replace-all', 'remove-section', 'rename-section', 'edit'])
      )
        return read(cmd);
      return execute(cmd, 'changes git configuration, which can run programs');
    case 'reflog': {
      const verb = o.positional[0]?.value;
      if (verb === 'expire' || verb === 'delete') return destroy(cmd, 'deletes reflog entries');
      return read(cmd);
    }
    case 'gc':
      if (o.long.has('prune')) return destroy(cmd, 'prunes unreachable objects');
      return write(cmd);
    case 'prune':
    case 'filter-branch':
    case 'filter-repo':
      return destroy(cmd, 'rewrites or prunes history');
    case 'update-ref':
      return o.short.has('d') ? destroy(cmd, 'deletes a ref') : write(cmd);
    case 'worktree':
      return o.positional[0]?.value === 'list' ? read(cmd) : write(cmd);
    case 'submodule':
      return o.positional[0]?.value === 'status' ? read(cmd) : execute(cmd, RUNS.get('submodule'));
    case 'rebase':
      if (hasFlag(o, 'xi', ['exec', 'interactive', 'edit-todo']))
        return execute(cmd, 'runs commands or an editor between commits');
      return write(cmd);
    case 'bisect':
      return o.positional[0]?.value === 'run' ? execute(cmd, 'runs a command on each commit') : write(cmd);
    case 'remote': {
      const verb = o.positional[0]?.value;
      if (verb === 'update' || verb === 'prune' || verb === 'show') return execute(cmd, 'contacts the remote');
      return verb === 'get-url' || !verb ? read(cmd) : write(cmd);
    }
  }
  const runs = RUNS.get(name);
  if (runs) return execute(cmd, runs);
  if (READ_SUBCOMMANDS.has(name)) {
    if (o.long.has('output')) return write(cmd, '--output writes a file');
    if (name === 'grep' && (o.short.has('O') || hasLongPrefix(o, ['open-files-in-pager'])))
      return execute(cmd, 'opens a pager');
    return read(cmd);
  }
  if (WRITE_SUBCOMMANDS.has(name)) return write(cmd);
  return execute(cmd, `git ${name} is an alias or extension`);
}

function hasDoubleDash(cmd: SimpleCommand): boolean {
  return cmd.args.some((w) => w.value === '--');
}

export const git: Handler = (cmd, scope) => {
  const s = sub(cmd.args);
  if (s.name === undefined) {
    return cmd.args.some((w) => w.value === '--version' || w.value === '--help' || w.value === '-h')
      ? read(cmd)
      : read(cmd, 'prints usage');
  }
  if (s.name === '\u0000') return execute(cmd, 'the git subcommand is computed');
  if (s.name === 'format-patch' && !s.risky) return formatPatch(cmd, s.rest, scope);
  const o = opts(s.rest);
  const [f] = byName(cmd, s.name, o);
  if (s.risky && f.effect !== 'destructive') return execute(cmd, s.risky);
  if (o.dynamic && f.effect === 'read') return execute(cmd, 'computed arguments cannot be checked');
  if (f.effect !== 'write') return [f];
  // A write is an edit of the repository: where it is, and what running git there would run.
  const dir = s.dir ? scope.resolve(s.dir) : scope.cwd;
  if (!dir) return execute(cmd, 'the directory git runs in is not known');
  if (s.name === 'init') return [{ ...f, paths: [o.positional[0] ? (scope.resolve(o.positional[0]) ?? dir) : dir] }];
  const repo = repoFacts(dir, scope.roots);
  if (repo.problem) return execute(cmd, repo.problem);
  if (repo.hooks && HOOKED.has(s.name)) return execute(cmd, `runs the repository's hooks (${repo.hooks})`);
  return [{ ...f, paths: [repo.root ?? dir] }];
};

/**
 * `git format-patch`: with --stdout it prints patches like `git log -p` (a read when the allow-list
 * says so, which checks the history for secrets). Otherwise it writes them to files, in the cwd or
 * `-o DIR`: an edit there, but only when the same checks pass, since the files are read later
 * without asking.
 */
function formatPatch(cmd: SimpleCommand, rest: Word[], scope: Scope): Finding[] {
  if (rest.some((w) => w.value === '--stdout')) return read(cmd, 'prints patches');
  const checked = gitRead(cmd, scope, true);
  if (!checked.ok) return execute(cmd, checked.why);
  let out: Word | undefined;
  for (let i = 0; i < rest.length && rest[i].value !== '--'; i++) {
    const v = rest[i].value;
    if (v === '-o' || v === '--output-directory') out = rest[i + 1];
    else if (v.startsWith('--output-directory=')) out = { ...rest[i], value: v.slice('--output-directory='.length) };
    else if (/^-[^-]*o./.test(v)) return execute(cmd, `${v}: where the patches go is not read apart`);
  }
  const dir = out ? scope.resolve(out) : scope.cwd;
  if (!dir) return execute(cmd, 'where the patches go is not known');
  return write(cmd, 'writes patch files', [dir]);
}
