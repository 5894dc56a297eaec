// Running the git CLI for the git tools: toolbelt's own git (never one found through the
// workspace), inside the sandbox (the read-only profile without network for reads, the workspace
// profile for writes, with the network only for git_push), in a scrubbed environment, and with
// the repository's program-naming config overridden (config-guard.ts).
//
// With sandbox.mode "off" (or "auto" where bubblewrap does not work) git runs on the host: then
// the overrides are what stands between the repository's config and the host. They cover every
// program-naming key git itself lists for the repository, but not a submodule's own config, nor a
// config rewritten between the listing and the run; the sandbox covers those.
import { ToolError, type Workspace } from '@toolbelt/core';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { EnvSettings } from '../shell/env.js';
import { trustedProgram } from '../process/programs.js';
import { configEnv, guardConfig, parseListing, STATIC_OVERRIDES } from './config-guard.js';
import { gitEnv } from './env.js';
import { spawnGit, type GitOptions, type GitRun } from './spawn.js';

export { gitEnv, type GitOptions, type GitRun };

/** read: status, diff, log, listing; write: commit, branch create and switch; push: git push. */
export type GitAccess = 'read' | 'write' | 'push';

export interface GitRunnerOptions {
  sandbox: Sandbox;
  /** Which variables are removed from git's environment (the shell section's hideEnv/passEnv). */
  env?: EnvSettings;
  /** Tests only: false drops the overrides of the repository's config, to show what they stop. */
  guardConfig?: boolean;
}

export interface RunOptions extends GitOptions {
  /** Its roots are what the sandbox shows (writable for write and push); its protected paths are hidden. */
  workspace: Pick<Workspace, 'roots' | 'protectedPaths'>;
  access?: GitAccess;
  /** Directories writable besides the roots: a local remote the user approved a push to. */
  writable?: readonly string[];
}

/** Plain output whatever the user's config says: paths unquoted, no colour, no pager. */
const PLAIN = ['-c', 'core.quotepath=false', '-c', 'color.ui=never', '--no-pager'];
const LIST = ['config', '--list', '--show-scope', '-z'];
/**
 * Commands that read refs and config and start no program whatever the config says: they skip
 * the listing (a second process, in the sandbox a second bubblewrap) and keep the static overrides.
 */
const NO_PROGRAMS = new Set(['rev-parse', 'symbolic-ref', 'check-ref-format', 'for-each-ref', 'remote']);

export class GitRunner {
  constructor(private readonly opts: GitRunnerOptions) {}

  async run(args: readonly string[], o: RunOptions): Promise<GitRun> {
    const git = trustedProgram('git');
    if (!git)
      throw new ToolError(
        'EXECUTION_FAILED',
        'git was not found on PATH (outside the workspace and node_modules). Install git to use the git tools.',
      );
    const access = o.access ?? 'read';
    // No resource limits: git is toolbelt's own program with fixed arguments, bounded by the tool's timeout.
    const c = await this.opts.sandbox.confine({
      roots: [...o.workspace.roots, ...(o.writable ?? [])],
      cwd: o.cwd,
      ...(o.workspace.protectedPaths ? { protectedPaths: o.workspace.protectedPaths } : {}),
      readOnly: access === 'read',
      network: access === 'push',
      ownFiles: 'read-only',
      gitConfig: 'writable',
    });
    const env = gitEnv(process.env, this.opts.env);
    const guarded =
      this.opts.guardConfig === false
        ? []
        : NO_PROGRAMS.has(args[0])
          ? STATIC_OVERRIDES
          : await this.guard(git, c.wrap, env, o);
    const full = [...PLAIN, ...guarded, ...args];
    return spawnGit(c.wrap({ file: git, args: full }), args, env, o);
  }

  /** Lists the config the run will read and sets the overrides in `env`; the static ones are returned. */
  private async guard(
    git: string,
    wrap: (inv: { file: string; args: string[] }) => { file: string; args: string[] },
    env: NodeJS.ProcessEnv,
    o: RunOptions,
  ) {
    const listing = await spawnGit(wrap({ file: git, args: LIST }), LIST, env, {
      cwd: o.cwd,
      ...(o.signal ? { signal: o.signal } : {}),
      allowFailure: true,
    });
    if (listing.code !== 0) {
      const why = listing.stderr.trim().split('\n').slice(-4).join('\n') || `exit ${listing.code}`;
      throw new ToolError(
        'EXECUTION_FAILED',
        `git could not read the repository's configuration, so nothing was run: ${why}`,
      );
    }
    const guard = guardConfig(parseListing(listing.stdout));
    Object.assign(env, configEnv(guard.overrides));
    for (const [k, v] of Object.entries(guard.env)) env[k] ??= v;
    return STATIC_OVERRIDES;
  }
}
