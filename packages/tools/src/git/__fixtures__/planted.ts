// Repositories whose own config names programs in every spelling git accepts, each program
// leaving a marker on the host if it runs there: a file directly in /tmp and one in a directory
// outside the workspace and outside /tmp (the sandbox shows the first as its private /tmp and the
// second read-only, so a program that ran inside it leaves neither).
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { makeRepo, sh, write } from './repos.js';

export interface Planted {
  /** The repositories: A has the driver spellings and .git/hooks, B core.hooksPath. */
  repos: string[];
  /** Marker names, one per spelling; each must show up when nothing protects. */
  names: string[];
  /** Which markers exist on the host now. */
  ran(): string[];
  cleanup(): void;
}

/** A driver spelling: the config text (in .git/config unless `file`), and the attributes line. */
interface Spelling {
  name: string;
  config: (mark: string) => string;
  /** Where the text goes, relative to .git; default config. */
  file?: string;
  attr?: string;
}

const drivers = (section: string, sub: string, mark: string, keys = ['clean', 'smudge']) =>
  `[${section} ${sub}]\n${keys.map((k) => `\t${k} = ${mark}\n`).join('')}`;

// Filters are what the tools reach: git_diff passes --no-ext-diff and --no-textconv, so the diff
// drivers defined beside them (textconv, merge) ride along in each spelling but leave no marker
// of their own even in the control.
function spellings(): Spelling[] {
  return [
    { name: 'std', config: (m) => drivers('filter', '"std"', m) + `[diff "std"]\n\ttextconv = ${m}\n` },
    { name: 'old', config: (m) => `[filter.old]\n\tclean = ${m}\n\tsmudge = ${m}\n[diff.old]\n\ttextconv = ${m}\n` },
    { name: 'Up', config: (m) => `[FILTER "Up"]\n\tCLEAN = ${m}\n\tSmudge = ${m}\n[Diff "Up"]\n\tTextConv = ${m}\n` },
    { name: 'cont', config: (m) => `[filter "cont"]\n\tclean = ${m.replace('; ', ' \\\n\t ; ')}\n\tsmudge = ${m}\n` },
    { name: 'eq', attr: 'filter=a=b', config: (m) => drivers('filter', '"a=b"', m) },
    { name: 'dot', attr: 'filter=d.o.t', config: (m) => drivers('filter', '"d.o.t"', m) },
    { name: 'inc', file: 'inc.cfg', config: (m) => drivers('filter', '"inc"', m) + `[Core]\n\tFSMonitor = ${m}\n` },
    {
      name: 'incif',
      file: 'incif.cfg',
      config: (m) => drivers('filter', '"incif"', m) + `[diff "incif"]\n\ttextconv = ${m}\n`,
    },
    {
      name: 'wt',
      file: 'config.worktree',
      config: (m) => drivers('filter', '"wt"', m) + `[merge "wt"]\n\tdriver = ${m}\n`,
    },
  ];
}

const HOOKS = [
  'pre-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'post-checkout',
  'reference-transaction',
  'pre-auto-gc',
  'post-index-change',
];

function hook(dir: string, mark: string): void {
  mkdirSync(dir, { recursive: true });
  for (const h of HOOKS) {
    writeFileSync(join(dir, h), `#!/bin/sh\n${mark}\nexit 0\n`);
    chmodSync(join(dir, h), 0o755);
  }
}

/** Repositories made in `parent` (the workspace root); markers outside it. */
export function plantRepos(parent: string): Planted {
  const id = `tb-planted-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const outside = realpathSync(mkdtempSync('/var/tmp/toolbelt-outside-'));
  chmodSync(outside, 0o777);
  const mark = (name: string) => `touch /tmp/${id}-${name} ${outside}/${name}; cat`;
  const a = join(parent, 'a');
  const b = join(parent, 'b');
  mkdirSync(a);
  mkdirSync(b);
  const names: string[] = [];

  makeRepo(a);
  const list = spellings();
  write(
    a,
    '.gitattributes',
    list.map((s) => `${s.name}.txt ${s.attr ?? `filter=${s.name} diff=${s.name} merge=${s.name}`}\n`).join(''),
  );
  for (const s of list) write(a, `${s.name}.txt`, `${s.name} 1\n`);
  sh(a, 'add', '.');
  sh(a, 'commit', '-q', '-m', 'files');
  // Only now, so that setting up ran none of them.
  sh(a, 'config', 'core.repositoryformatversion', '1');
  sh(a, 'config', 'extensions.worktreeConfig', 'true');
  let config = `[include]\n\tpath = inc.cfg\n[includeIf "gitdir:${a}/"]\n\tpath = incif.cfg\n`;
  for (const s of list) {
    if (s.file) write(a, `.git/${s.file}`, s.config(mark(s.name)));
    else config += s.config(mark(s.name));
    names.push(s.name);
  }
  appendFileSync(join(a, '.git', 'config'), config);
  hook(join(a, '.git', 'hooks'), mark('hook').replace('; cat', ''));
  names.push('hook');

  makeRepo(b);
  write(b, 'x.txt', 'x 1\n');
  sh(b, 'add', '.');
  sh(b, 'commit', '-q', '-m', 'x');
  hook(join(b, 'hooks'), mark('hookspath').replace('; cat', ''));
  appendFileSync(
    join(b, '.git', 'config'),
    `[CORE]\n\thooksPath = hooks\n\tfsmonitor = ${mark('fsmonitor').replace('; cat', '; true')}\n`,
  );
  names.push('hookspath', 'fsmonitor');

  const where = (n: string) => [`/tmp/${id}-${n}`, join(outside, n)];
  return {
    repos: [a, b],
    names,
    ran: () => names.filter((n) => where(n).some((p) => existsSync(p))),
    cleanup() {
      rmSync(outside, { recursive: true, force: true });
      for (const n of names) rmSync(`/tmp/${id}-${n}`, { force: true });
    },
  };
}

export interface Call {
  tool: string;
  input: Record<string, unknown>;
}

/**
 * What an agent does in a repository: every git tool, on changed files (the clean filter and
 * textconv run for those), a commit (hooks), and switching to a commit with other contents and
 * back (smudge, post-checkout). The files are changed here, before the calls.
 */
export function workflow(repo: string, files: readonly string[]): Call[] {
  for (const f of files) appendFileSync(join(repo, f), 'changed\n');
  return [
    { tool: 'git_status', input: {} },
    { tool: 'git_diff', input: {} },
    { tool: 'git_diff', input: { stat: true } },
    { tool: 'git_log', input: { format: 'full' } },
    { tool: 'git_commit', input: { message: 'change', files } },
    { tool: 'git_branch', input: { action: 'create', name: 'older', startPoint: 'HEAD~1' } },
    { tool: 'git_branch', input: { action: 'switch', name: 'main' } },
    { tool: 'git_branch', input: { action: 'list' } },
    { tool: 'git_log', input: {} },
  ];
}

/** The files workflow() changes in each planted repository. */
export function changedFiles(p: Planted): string[][] {
  return [p.names.filter((n) => !['hook', 'hookspath', 'fsmonitor'].includes(n)).map((n) => `${n}.txt`), ['x.txt']];
}
