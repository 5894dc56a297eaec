// The git family: the git CLI with argument arrays, inside the workspace, run in the sandbox.
import { configSection, type Tool } from '@toolbelt/core';
import { Sandbox } from '../sandbox/sandbox.js';
import { sandboxSection } from '../sandbox/section.js';
import { sandboxSettings } from '../sandbox/settings.js';
import type { EnvSettings } from '../shell/env.js';
import { gitBranch } from './git_branch.js';
import { gitCommit } from './git_commit.js';
import { gitDiff } from './git_diff.js';
import { gitLog } from './git_log.js';
import { gitPush } from './git_push.js';
import { gitStatus } from './git_status.js';
import { GitRunner } from './run.js';

export interface GitToolsOptions {
  /** Where git runs; default: one from the config's `sandbox` section. */
  sandbox?: Sandbox;
  /** toolbelt.config.json (or an object like it): its `sandbox` section, when no sandbox is given. */
  config?: unknown;
  /** Which variables git's environment loses (the shell section's hideEnv/passEnv); default the shell's defaults. */
  env?: EnvSettings;
  /** Tests only: false runs git without overriding the repository's program-naming config. */
  guardConfig?: boolean;
}

export function gitTools(opts: GitToolsOptions = {}): Tool[] {
  const sandbox = opts.sandbox ?? new Sandbox(sandboxSettings(configSection(opts.config, 'sandbox', sandboxSection)));
  const git = new GitRunner({
    sandbox,
    ...(opts.env ? { env: opts.env } : {}),
    ...(opts.guardConfig === false ? { guardConfig: false } : {}),
  });
  return [gitStatus, gitDiff, gitLog, gitBranch, gitCommit, gitPush].map((make) => make(git)) as Tool[];
}
