import { defineTool } from '@toolbelt/core';
import { GIT } from './group.js';
import { z } from 'zod';
import { checkRevision } from './names.js';
import { currentBranch, openRepo } from './repo.js';
import type { GitRunner } from './run.js';

const description = `Commit history, newest first. oneline: hash, date, author, subject; full adds email, message and files.`;

const input = z.object({
  limit: z.number().int().min(1).max(200).default(10).describe('Commits.'),
  path: z.string().optional().describe('Only commits touching it.'),
  ref: z.string().optional().describe('Start instead of HEAD.'),
  format: z.enum(['oneline', 'full']).default('oneline').describe('Detail.'),
});

const FORMATS = {
  oneline: ['--format=%h %ad %an: %s', '--date=short'],
  full: ['--format=commit %H%nAuthor: %an <%ae>%nDate:   %ad%n%n%w(0,4,4)%B', '--date=iso', '--stat=100'],
};

export const gitLog = (git: GitRunner) =>
  defineTool({
    name: 'git_log',
    title: 'Git log',
    description,
    input,
    category: 'git',
    group: GIT,
    effect: 'read',
    async execute({ limit, path, ref, format }, ctx) {
      const repo = await openRepo(git, ctx, path);
      const args = ['log', '--no-color', '--no-ext-diff', `--max-count=${limit}`, ...FORMATS[format]];
      if (ref) {
        await checkRevision(repo, ref);
        args.push('--end-of-options', ref);
      } else {
        const head = await repo.run(['rev-parse', '--verify', '--quiet', 'HEAD'], { allowFailure: true });
        if (head.code !== 0) {
          const branch = await currentBranch(repo);
          return `No commits yet${branch ? ` on branch ${branch}` : ''}.`;
        }
      }
      args.push('--');
      if (path) args.push(await repo.pathspec(path, 'read'));
      const out = (await repo.run(args)).stdout.trimEnd().replace(/\n{3,}/g, '\n\n');
      return out || `No commits touched ${path}${ref ? ` in ${ref}` : ''}.`;
    },
  });
