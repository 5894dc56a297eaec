// Names that reach git's argument list: never an option, always a valid ref or remote.
import { ToolError } from '@toolbelt/core';
import type { Repo } from './repo.js';

/** Refuses what git could read as an option, or what no ref may contain. */
export function plainName(kind: string, name: string): string | undefined {
  if (name.length === 0) return `${kind} must not be empty`;
  if (name.startsWith('-'))
    return `${kind} "${name}" starts with "-", so git would read it as an option; use a name that starts with a letter or digit`;
  if (/[\s\x00-\x1f\x7f~^:?*[\\]/.test(name))
    return `${kind} "${name}" contains a space, control character or one of ~ ^ : ? * [ \\, which git does not allow in names`;
  return undefined;
}

export async function checkBranchName(repo: Repo, name: string): Promise<void> {
  const problem = plainName('branch name', name);
  if (problem) throw new ToolError('INVALID_PARAMS', problem);
  const r = await repo.run(['check-ref-format', '--branch', name], { allowFailure: true });
  if (r.code !== 0)
    throw new ToolError('INVALID_PARAMS', `"${name}" is not a valid branch name (git check-ref-format refused it)`);
}

/** Resolves a revision (branch, tag, hash, HEAD~2) to a commit, or says it does not exist. */
export async function checkRevision(repo: Repo, rev: string): Promise<void> {
  if (rev.startsWith('-'))
    throw new ToolError(
      'INVALID_PARAMS',
      `revision "${rev}" starts with "-", so git would read it as an option; pass a branch, tag or commit hash`,
    );
  if (rev.length === 0 || /[\s\x00-\x1f\x7f]/.test(rev))
    throw new ToolError(
      'INVALID_PARAMS',
      `revision ${JSON.stringify(rev)} is empty or contains spaces or control characters`,
    );
  const r = await repo.run(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], {
    allowFailure: true,
  });
  if (r.code !== 0)
    throw new ToolError(
      'NOT_FOUND',
      `no commit named "${rev}" in this repository; use a branch, tag or commit hash (see git_log or git_branch)`,
    );
}

export async function remotes(repo: Repo): Promise<string[]> {
  const r = await repo.run(['remote']);
  return r.stdout.split('\n').filter(Boolean);
}
