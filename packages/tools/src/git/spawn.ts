// Starting one git process (inside its sandbox, when there is one): an argument array (never a
// shell string), a hard cap on what is kept of its output, and the process killed on abort.
import { spawn } from 'node:child_process';
import { ToolError } from '@toolbelt/core';
import type { Invocation } from '../process/limits.js';

export interface GitOptions {
  cwd: string;
  signal?: AbortSignal;
  /** Written to git's stdin (a commit message). */
  input?: string;
  /** Return a failed run instead of throwing. */
  allowFailure?: boolean;
  /** Bytes of stdout kept; the rest is dropped and `truncated` set. Default 8 MB. */
  maxBytes?: number;
}

export interface GitRun {
  stdout: string;
  stderr: string;
  code: number;
  truncated: boolean;
}

/** Runs `inv` (git, or bubblewrap around it); `args` are git's own, for messages. */
export function spawnGit(
  inv: Invocation,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  opts: GitOptions,
): Promise<GitRun> {
  const max = opts.maxBytes ?? 8 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new ToolError('ABORTED', 'git was cancelled before it started'));
    // A session of its own: no controlling terminal, so ssh cannot stop to ask for a passphrase.
    const child = spawn(inv.file, inv.args, { cwd: opts.cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let truncated = false;
    child.stdout.on('data', (b: Buffer) => {
      if (outBytes >= max) return void (truncated = true);
      out.push(b.subarray(0, max - outBytes));
      if (b.length > max - outBytes) truncated = true;
      outBytes += b.length;
    });
    child.stderr.on('data', (b: Buffer) => {
      if (errBytes < 64 * 1024) err.push(b);
      errBytes += b.length;
    });
    const onAbort = () => killGroup(child.pid);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (e: NodeJS.ErrnoException) => {
      opts.signal?.removeEventListener('abort', onAbort);
      reject(new ToolError('EXECUTION_FAILED', `could not start git (${inv.file}): ${e.message}`));
    });
    child.on('close', (code, sig) => {
      opts.signal?.removeEventListener('abort', onAbort);
      if (opts.signal?.aborted) return reject(new ToolError('ABORTED', `git ${args[0]} was cancelled`));
      const run: GitRun = {
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        code: code ?? (sig ? 128 : 1),
        truncated,
      };
      if (run.code !== 0 && !opts.allowFailure) return reject(gitFailure(args, run));
      resolve(run);
    });
    child.stdin.on('error', () => {}); // git may exit before reading its input
    child.stdin.end(opts.input ?? '');
  });
}

function gitFailure(args: readonly string[], run: GitRun): ToolError {
  const detail = (run.stderr || run.stdout).trim().split('\n').slice(-8).join('\n');
  return new ToolError('EXECUTION_FAILED', `git ${args[0]} failed (exit ${run.code}): ${detail || 'no output'}`);
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    // already gone
  }
}
