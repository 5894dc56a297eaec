import { join } from 'node:path';
import { defineTool, ToolError, type Classification, type ToolContext } from '@toolbelt/core';
import { GIT } from './group.js';
import { z } from 'zod';
import { checkBranchName, checkRevision, plainName } from './names.js';
import { reportChanges } from '../workspace/report-changes.js';
import { currentBranch, openRepo, type Repo } from './repo.js';
import type { GitRunner } from './run.js';

const description = `List branches (current marked *, upstream, last commit), or create one (and switch to it) or switch; create and switch need approval and refuse to overwrite local changes.`;

const input = z.object({
  action: z.enum(['list', 'create', 'switch']).default('list').describe('What to do.'),
  name: z.string().optional().describe('Required for create and switch.'),
  startPoint: z.string().optional().describe('create: start commit (default HEAD).'),
  checkout: z.boolean().default(true).describe('create: switch to it.'),
  all: z.boolean().default(false).describe('list: remote-tracking too.'),
});

type Input = z.output<typeof input>;

const LIST_FORMAT =
  '%(HEAD)%00%(refname:short)%00%(objectname:short)%00%(upstream:short)%00%(upstream:track)%00%(contents:subject)';

async function list(repo: Repo, all: boolean): Promise<string> {
  const refs = ['refs/heads', ...(all ? ['refs/remotes'] : [])];
  const out = (await repo.run(['for-each-ref', `--format=${LIST_FORMAT}`, ...refs])).stdout;
  const rows = out
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\0'));
  if (!rows.length) {
    const branch = await currentBranch(repo);
    return `No branches yet${branch ? `: ${branch} has no commits` : ''}.`;
  }
  const width = Math.min(40, Math.max(...rows.map((r) => r[1].length)));
  return rows
    .map(([head, name, hash, upstream, track, subject]) => {
      const up = upstream ? ` [${upstream}${track ? `: ${track.replace(/^\[|\]$/g, '')}` : ''}]` : '';
      return `${head === '*' ? '*' : ' '} ${name.padEnd(width)} ${hash}${up} ${subject}`;
    })
    .join('\n');
}

export const gitBranch = (git: GitRunner) =>
  defineTool({
    name: 'git_branch',
    title: 'Git branch',
    description,
    input,
    category: 'git',
    group: GIT,
    validate({ action, name, startPoint }: Input) {
      if (action === 'list') return undefined;
      if (!name) return `name is required for action "${action}"`;
      return (
        plainName('branch name', name) ??
        (startPoint?.startsWith('-') ? plainName('startPoint', startPoint) : undefined)
      );
    },
    usualEffect: 'write',
    effect({ action, name, startPoint, checkout }: Input): Classification {
      if (action === 'list') return { effect: 'read' };
      const reason =
        action === 'switch'
          ? `switches the working tree to branch ${name}`
          : `creates branch ${name} from ${startPoint ?? 'HEAD'}${checkout ? ' and switches to it' : ''}`;
      return { effect: 'write', reason };
    },
    async execute({ action, name, startPoint, checkout, all }, ctx) {
      const repo = await openRepo(git, ctx);
      if (action === 'list') return list(repo, all);
      const branch = name!;
      await checkBranchName(repo, branch);
      const exists =
        (await repo.run(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], { allowFailure: true })).code ===
        0;
      if (action === 'create') return create(repo, { branch, exists, startPoint, checkout });
      return switchTo(repo, ctx, branch, exists);
    },
  });

/** action "create": a new branch from startPoint (default HEAD), checked out if asked. */
async function create(
  repo: Repo,
  {
    branch,
    exists,
    startPoint,
    checkout,
  }: { branch: string; exists: boolean; startPoint?: string; checkout?: boolean },
): Promise<string> {
  if (exists)
    throw new ToolError(
      'CONFLICT',
      `branch ${branch} already exists; use action "switch" to check it out, or pick another name`,
    );
  if (startPoint) await checkRevision(repo, startPoint);
  const from = startPoint ? ['--end-of-options', startPoint] : [];
  // `git branch NAME` needs a commit; `switch -c` also works on a branch with no commits yet.
  if (checkout) await repo.run(['switch', '--no-guess', '-c', branch, ...from], { access: 'write' });
  else await repo.run(['branch', '--no-track', branch, ...from], { access: 'write' });
  return `Created branch ${branch} from ${startPoint ?? 'HEAD'}${checkout ? ' and switched to it' : ''}.`;
}

/** action "switch": checks out an existing local branch; a switch that would lose changes is refused by git. */
async function switchTo(repo: Repo, ctx: ToolContext, branch: string, exists: boolean): Promise<string> {
  if (!exists)
    throw new ToolError(
      'NOT_FOUND',
      `no local branch named ${branch}; use git_branch with action "list" (all: true for remote ones), or action "create"`,
    );
  const before = (await repo.run(['rev-parse', '--verify', '--quiet', 'HEAD'], { allowFailure: true })).stdout.trim();
  const run = await repo.run(['switch', '--no-guess', branch], { access: 'write', allowFailure: true });
  if (run.code !== 0) {
    throw new ToolError(
      'CONFLICT',
      `could not switch to ${branch}: ${run.stderr.trim().split('\n').slice(0, 8).join('\n')}\nCommit or stash your changes first (see git_status).`,
    );
  }
  if (before) await reportSwitched(repo, ctx, before);
  return `Switched to branch ${branch}.`;
}

/** The files the switch rewrote, told as file.changed, so editors showing them reload. */
async function reportSwitched(repo: Repo, ctx: ToolContext, before: string): Promise<void> {
  const diff = await repo.run(['diff', '--name-only', '-z', before, 'HEAD'], { allowFailure: true });
  if (diff.code !== 0) return;
  reportChanges(
    ctx,
    diff.stdout
      .split('\0')
      .filter(Boolean)
      .map((p) => join(repo.top, p)),
  );
}
