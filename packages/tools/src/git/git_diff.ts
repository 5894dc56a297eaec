import { defineTool, type ToolOutput } from '@toolbelt/core';
import { GIT } from './group.js';
import { z } from 'zod';
import { checkRevision } from './names.js';
import { diffPrefixes, openRepo } from './repo.js';
import type { GitRunner } from './run.js';

const description = `Unified diff of unstaged changes; staged for the next commit, base against a commit, stat for a summary. Untracked files: git_status.`;

const input = z.object({
  path: z.string().optional().describe('Only this file or directory.'),
  staged: z.boolean().default(false).describe('Index vs HEAD (or base).'),
  base: z.string().optional().describe('e.g. "main", "HEAD~1".'),
  stat: z.boolean().default(false).describe('Files and line counts only.'),
  context: z.number().int().min(0).max(50).default(3).describe('Context lines.'),
});

export const gitDiff = (git: GitRunner) =>
  defineTool({
    name: 'git_diff',
    title: 'Git diff',
    description,
    input,
    category: 'git',
    group: GIT,
    effect: 'read',
    async execute({ path, staged, base, stat, context }, ctx): Promise<ToolOutput | string> {
      const repo = await openRepo(git, ctx, path);
      const args = ['diff', '--no-ext-diff', '--no-textconv', '--no-color', `-U${context}`, ...diffPrefixes(repo)];
      if (staged) args.push('--cached');
      if (stat) args.push('--stat=120');
      if (base) {
        await checkRevision(repo, base);
        args.push('--end-of-options', base);
      }
      args.push('--');
      if (path) args.push(await repo.pathspec(path, 'read'));
      const run = await repo.run(args);
      const diff = run.stdout;
      if (!diff.trim()) {
        const what = base ? `No differences against ${base}` : staged ? 'No staged changes' : 'No unstaged changes';
        return `${what}${path ? ` in ${path}` : ''}. Untracked files are not shown; see git_status.`;
      }
      const note = run.truncated ? '\n[diff cut at 8 MB; pass path or stat: true to see less]' : '';
      return {
        content: diff + note,
        display: stat ? { kind: 'text', text: diff } : { kind: 'diff', diff },
        metadata: { truncated: run.truncated },
      };
    },
  });
