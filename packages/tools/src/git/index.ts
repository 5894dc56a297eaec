// The git family: the git CLI with argument arrays, inside the workspace.
import type { Tool } from '@toolbelt/core';
import { gitBranch } from './git_branch.js';
import { gitCommit } from './git_commit.js';
import { gitDiff } from './git_diff.js';
import { gitLog } from './git_log.js';
import { gitPush } from './git_push.js';
import { gitStatus } from './git_status.js';

export { gitBranch, gitCommit, gitDiff, gitLog, gitPush, gitStatus };

export function gitTools(): Tool[] {
  return [gitStatus, gitDiff, gitLog, gitBranch, gitCommit, gitPush] as Tool[];
}
