import { defineTool, type ToolOutput } from '@toolbelt/core';
import { GIT } from './group.js';
import { z } from 'zod';
import { parseStatus, STATUS_ARGS, type Status, type StatusEntry } from './porcelain.js';
import { openRepo, type Repo } from './repo.js';
import type { GitRunner } from './run.js';

const description = `Branch, ahead/behind upstream, and staged, unstaged, untracked and conflicted files (at most 200 per section).`;

const input = z.object({
  path: z.string().optional().describe('Only this file or directory.'),
});

const MAX_PER_SECTION = 200;

export const gitStatus = (git: GitRunner) =>
  defineTool({
    name: 'git_status',
    title: 'Git status',
    description,
    input,
    category: 'git',
    group: GIT,
    effect: 'read',
    async execute({ path }, ctx): Promise<ToolOutput> {
      const repo = await openRepo(git, ctx, path);
      const args = [...STATUS_ARGS];
      if (path) args.push('--', await repo.pathspec(path, 'read'));
      const status = parseStatus((await repo.run(args)).stdout);
      return { content: formatStatus(status, repo), metadata: { ...status.branch, entries: status.entries.length } };
    },
  });

function branchLine({ branch }: Status): string {
  const b = branch;
  let line = b.head ? `On branch ${b.head}` : `HEAD detached at ${b.oid?.slice(0, 7) ?? '(no commit)'}`;
  if (!b.oid) line += ' (no commits yet)';
  if (b.upstream) {
    const ab =
      b.ahead === undefined
        ? 'upstream gone'
        : b.ahead || b.behind
          ? `ahead ${b.ahead}, behind ${b.behind}`
          : 'up to date';
    line += `, tracking ${b.upstream} (${ab})`;
  } else if (b.head) line += ', no upstream';
  return line;
}

function section(title: string, items: string[]): string[] {
  if (!items.length) return [];
  const shown = items.slice(0, MAX_PER_SECTION).map((i) => `  ${i}`);
  if (items.length > MAX_PER_SECTION) shown.push(`  ... and ${items.length - MAX_PER_SECTION} more`);
  return [`${title} (${items.length}):`, ...shown];
}

function describe(e: StatusEntry, change: string, repo: Repo): string {
  const p = repo.show(e.path);
  return e.from && (change === 'renamed' || change === 'copied')
    ? `${change}: ${repo.show(e.from)} -> ${p}`
    : `${change}: ${p}`;
}

function formatStatus(status: Status, repo: Repo): string {
  const e = status.entries;
  const lines = [branchLine(status)];
  lines.push(
    ...section(
      'Conflicts',
      e.filter((x) => x.conflict).map((x) => `${x.conflict}: ${repo.show(x.path)}`),
    ),
    ...section(
      'Staged',
      e.filter((x) => x.staged).map((x) => describe(x, x.staged!, repo)),
    ),
    ...section(
      'Not staged',
      e.filter((x) => x.unstaged).map((x) => describe(x, x.unstaged!, repo)),
    ),
    ...section(
      'Untracked',
      e.filter((x) => x.untracked).map((x) => repo.show(x.path)),
    ),
  );
  if (!e.length) lines.push('Working tree clean.');
  return lines.join('\n');
}
