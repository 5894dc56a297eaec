import { defineTool, type ToolOutput } from '@toolbelt/core';
import { z } from 'zod';
import { checkRevision } from './names.js';
import { diffPrefixes, openRepo } from './repo.js';

const description = `Show changes in the git repository as a unified diff.
Default: unstaged changes (working tree vs index). staged: true shows what the next commit would contain. base compares against a commit, branch or tag instead. stat: true gives a per-file summary instead of the diff.
Untracked files are not included (git_status lists them). Read-only.`;

const input = z.object({
  path: z.string().optional().describe('Only changes to this file or directory. Default: the whole repository.'),
  staged: z.boolean().default(false).describe('Show staged changes (index vs HEAD, or vs base) instead of unstaged ones. Default false.'),
  base: z.string().optional().describe('Commit, branch or tag to compare against, e.g. "main" or "HEAD~1". Default: the index (or HEAD when staged).'),
  stat: z.boolean().default(false).describe('Summarize changed files and line counts instead of printing the diff. Default false.'),
  context: z.number().int().min(0).max(50).default(3).describe('Lines of context around each change, 0-50. Default 3.'),
});

export const gitDiff = defineTool({
  name: 'git_diff',
  title: 'Git diff',
  description,
  input,
  category: 'git',
  effect: 'read',
  async execute({ path, staged, base, stat, context }, ctx): Promise<ToolOutput | string> {
    const repo = await openRepo(ctx, path);
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
    return { content: diff + note, display: stat ? { kind: 'text', text: diff } : { kind: 'diff', diff }, metadata: { truncated: run.truncated } };
  },
});
