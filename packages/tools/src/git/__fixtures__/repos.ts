// Test helpers: real repositories in temp dirs, and an executor over the git tools.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Executor, Policy, ToolRegistry, type ApprovalRequest, type Mode, type ToolResult } from '@toolbelt/core';
import { WorkspaceGuard } from '../../workspace/guard.js';
import { gitTools, type GitToolsOptions } from '../index.js';

export function sh(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' },
  });
}

export function write(root: string, rel: string, text: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

const made: string[] = [];

export function tempDir(prefix = 'toolbelt-git-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

export function cleanup(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** A repository with identity configured and, unless empty, one commit of README.md. */
export function makeRepo(dir = tempDir(), opts: { empty?: boolean } = {}): string {
  sh(dir, 'init', '-q', '-b', 'main');
  sh(dir, 'config', 'user.name', 'Test Author');
  sh(dir, 'config', 'user.email', 'test@example.com');
  sh(dir, 'config', 'commit.gpgsign', 'false');
  if (!opts.empty) {
    write(dir, 'README.md', '# demo\n');
    sh(dir, 'add', 'README.md');
    sh(dir, 'commit', '-q', '-m', 'initial commit');
  }
  return dir;
}

/** A bare remote named origin, with main pushed and tracked. */
export function addBareRemote(repo: string): string {
  const bare = tempDir('toolbelt-bare-');
  sh(bare, 'init', '-q', '--bare', '-b', 'main');
  sh(repo, 'remote', 'add', 'origin', bare);
  sh(repo, 'push', '-q', '-u', 'origin', 'main');
  return bare;
}

export interface Harness {
  executor: Executor;
  requests: ApprovalRequest[];
  call(tool: string, input: unknown): Promise<ToolResult>;
}

/** Executor over the git tools; approvals are recorded and answered with `answer`. */
export function harness(
  root: string,
  opts: { mode?: Mode; answer?: 'approve' | 'reject'; cwd?: string; tools?: GitToolsOptions } = {},
): Harness {
  const registry = new ToolRegistry().registerAll(gitTools(opts.tools));
  const requests: ApprovalRequest[] = [];
  const executor = new Executor({
    registry,
    policy: new Policy({ mode: opts.mode ?? 'yolo' }),
    workspace: new WorkspaceGuard({ roots: [root], ...(opts.cwd ? { cwd: opts.cwd } : {}) }),
    approver: async (req) => {
      requests.push(req);
      return opts.answer === 'reject' ? { outcome: 'reject', message: 'no' } : { outcome: 'approve' };
    },
  });
  return { executor, requests, call: (tool, input) => executor.call({ tool, input }) };
}
