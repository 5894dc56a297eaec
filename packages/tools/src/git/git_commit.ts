import { defineTool, ToolError, type Classification, type ToolContext, type ToolOutput } from '@toolbelt/core';
import { GIT } from './group.js';
import { z } from 'zod';
import { parseStatus, STATUS_ARGS, type StatusEntry } from './porcelain.js';
import { currentBranch, openRepo, type Repo } from './repo.js';
import type { GitRunner } from './run.js';

const description = `Commit the staged changes, or exactly files (staged for you, others left as they are). Returns the short hash and changed files. Needs approval.`;

const input = z.object({
  message: z.string().trim().min(1).max(10_000).describe('Subject line, optional blank line and body.'),
  files: z.array(z.string().min(1)).max(1000).optional().describe('Files or directories (default: what is staged).'),
});

type Input = z.output<typeof input>;

async function resolveFiles(repo: Repo, files: string[] | undefined): Promise<string[]> {
  return Promise.all((files ?? []).map((f) => repo.pathspec(f, 'write')));
}

/** What the commit will contain, one line per path, without changing the index. */
async function pending(repo: Repo, abs: string[]): Promise<string[]> {
  const args = [...STATUS_ARGS, '--untracked-files=all'];
  if (abs.length) args.push('--', ...abs);
  const { entries } = parseStatus((await repo.run(args)).stdout);
  const line = (e: StatusEntry, change: string | undefined) => (change ? `${change}: ${repo.show(e.path)}` : undefined);
  return entries
    .map((e) =>
      abs.length
        ? line(e, e.untracked ? 'added' : e.staged === 'added' ? 'added' : (e.unstaged ?? e.staged))
        : line(e, e.staged),
    )
    .filter((l): l is string => l !== undefined);
}

/** Stages `files` (at `abs`), or checks that something is staged; nothing to commit is an error that says so. */
async function stage(repo: Repo, abs: string[], files: string[] | undefined): Promise<void> {
  if (abs.length) {
    if (!(await pending(repo, abs)).length) {
      throw new ToolError(
        'INVALID_PARAMS',
        `${files!.join(', ')} ${files!.length > 1 ? 'have' : 'has'} no changes to commit; check git_status`,
      );
    }
    await repo.run(['add', '--all', '--', ...abs], { access: 'write' });
    return;
  }
  const staged = await repo.run(['diff', '--cached', '--quiet', '--no-ext-diff'], { allowFailure: true });
  if (staged.code === 0)
    throw new ToolError(
      'INVALID_PARAMS',
      'nothing is staged; pass files to commit specific files, or check git_status',
    );
}

export const gitCommit = (git: GitRunner) =>
  defineTool({
    name: 'git_commit',
    title: 'Git commit',
    description,
    input,
    category: 'git',
    group: GIT,
    usualEffect: 'write',
    async effect({ files }: Input, ctx: ToolContext): Promise<Classification> {
      const repo = await openRepo(git, ctx, files?.[0]);
      const paths = await resolveFiles(repo, files);
      const what = paths.length ? `${paths.length} path${paths.length > 1 ? 's' : ''}` : 'the staged changes';
      return {
        effect: 'write',
        reason: `commits ${what} in ${repo.workspace.display(repo.top)}`,
        subject: { paths: paths.length ? paths : [repo.top] },
      };
    },
    async preview({ message, files }, ctx) {
      const repo = await openRepo(git, ctx, files?.[0]);
      const changes = await pending(repo, await resolveFiles(repo, files));
      const branch = (await currentBranch(repo)) ?? 'detached HEAD';
      const subject = message.split('\n')[0];
      const list = changes.length ? changes.map((c) => `  ${c}`).join('\n') : '  (nothing: the commit will fail)';
      return { kind: 'text', text: `git commit on ${branch}: ${subject}\n\nFiles (${changes.length}):\n${list}` };
    },
    async execute({ message, files }, ctx): Promise<ToolOutput> {
      const repo = await openRepo(git, ctx, files?.[0]);
      const abs = await resolveFiles(repo, files);
      await stage(repo, abs, files);
      const args = ['commit', '--file=-', '--cleanup=whitespace'];
      if (abs.length) args.push('--only', '--', ...abs);
      const run = await repo.run(args, { access: 'write', input: message, allowFailure: true });
      if (run.code !== 0) {
        const why = (run.stderr || run.stdout).trim();
        const hint = /tell me who you are|user\.email/i.test(why)
          ? ' Git has no author identity: ask the user to set user.name and user.email (git config).'
          : '';
        throw new ToolError(
          'EXECUTION_FAILED',
          `git commit failed (exit ${run.code}): ${why.split('\n').slice(-6).join('\n')}${hint}`,
        );
      }
      const head = (await repo.run(['log', '-1', '--format=%h%x00%H%x00%s'])).stdout.trim().split('\0');
      const stat = (await repo.run(['show', '--stat=100', '--format=', '--no-color', 'HEAD'])).stdout.trimEnd();
      const branch = (await currentBranch(repo)) ?? 'detached HEAD';
      return {
        content: `Committed ${head[0]} on ${branch}: ${head[2]}\n${stat}`,
        metadata: { commit: head[1], branch },
      };
    },
  });
