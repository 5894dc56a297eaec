// The repository a git tool works on: found from a path inside the workspace, and itself inside it.
import { stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { ToolError, type ToolContext, type Workspace } from '@toolbelt/core';
import { dotGitAbove } from '../workspace/git-dir.js';
import type { GitAccess, GitOptions, GitRun, GitRunner } from './run.js';

interface RepoRunOptions extends Omit<GitOptions, 'cwd' | 'signal'> {
  /** Default read: the sandbox's read-only profile without network. */
  access?: GitAccess;
  /** Directories writable besides the roots (a local remote the user approved a push to). */
  writable?: readonly string[];
}

export interface Repo {
  /** Absolute real path of the work tree's top level; git runs here. */
  top: string;
  workspace: Workspace;
  signal: AbortSignal;
  /** Runs git in the top level. */
  run(args: readonly string[], opts?: RepoRunOptions): Promise<GitRun>;
  /** A path git printed (relative to the top level) as the model should see it. */
  show(pathFromTop: string): string;
  /** Resolves a model's path through the workspace guard; it must be inside this repository. */
  pathspec(path: string, access: 'read' | 'write'): Promise<string>;
}

export async function openRepo(git: GitRunner, ctx: ToolContext, path?: string): Promise<Repo> {
  const ws = ctx.workspace;
  // A deleted file still has history and can be committed: start from its nearest existing parent.
  let dir = await ws.resolve(path || '.', 'read');
  for (
    let info = await stat(dir).catch(() => undefined);
    !info?.isDirectory();
    info = await stat(dir).catch(() => undefined)
  ) {
    if (dirname(dir) === dir) break;
    dir = dirname(dir);
  }

  const found = await git.run(['rev-parse', '--show-toplevel'], {
    workspace: ws,
    cwd: dir,
    signal: ctx.signal,
    allowFailure: true,
  });
  if (found.code !== 0) {
    // The sandbox shows nothing of /tmp but the roots, so git there cannot see a repository
    // that starts above them; the file system can.
    const above = dotGitAbove(dir);
    if (above && !ws.roots.some((r) => above === r || above.startsWith(r + sep))) throw outside(ws, above);
    throw new ToolError(
      'NOT_FOUND',
      `${ws.display(dir)} is not inside a git repository. Pass path pointing into a repository, or create one (git init).`,
    );
  }
  const top = found.stdout.trim();
  try {
    await ws.resolve(top, 'read');
  } catch {
    throw outside(ws, top);
  }
  const repo: Repo = {
    top,
    workspace: ws,
    signal: ctx.signal,
    run: (args, opts = {}) => git.run(args, { ...opts, workspace: ws, cwd: top, signal: ctx.signal }),
    show: (p) => ws.display(join(top, p)),
    async pathspec(p, access) {
      const abs = await ws.resolve(p, access);
      const rel = relative(top, abs);
      if (rel === '..' || rel.startsWith('..' + sep))
        throw new ToolError('INVALID_PARAMS', `${p} is outside the repository at ${ws.display(top)}`);
      return abs;
    },
  };
  return repo;
}

function outside(ws: Workspace, top: string): ToolError {
  return new ToolError(
    'PERMISSION_DENIED',
    `the git repository at ${top} starts outside the workspace; git tools only work on repositories whose top level is inside ${ws.roots.join(' or ')}`,
  );
}

/** The current branch, or undefined when HEAD is detached. Works before the first commit. */
export async function currentBranch(repo: Repo): Promise<string | undefined> {
  const r = await repo.run(['symbolic-ref', '--quiet', '--short', 'HEAD'], { allowFailure: true });
  return r.code === 0 ? r.stdout.trim() : undefined;
}

/** Prefix for diff paths so they read relative to the workspace root, not the repository. */
export function diffPrefixes(repo: Repo): string[] {
  const at = repo.workspace.display(repo.top);
  if (at === '.' || at === repo.top) return [];
  return [`--src-prefix=a/${at}/`, `--dst-prefix=b/${at}/`];
}
