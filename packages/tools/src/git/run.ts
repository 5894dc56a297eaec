// Running the git CLI: an argument array (never a shell string), a clean non-interactive
// environment, a hard cap on what is kept of its output, and the process killed on abort.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ToolError } from '@toolbelt/core';
import { spawnError } from '../errno.js';
import { gitDirOf } from './locate.js';

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

// Variables that would point git at another repository or index than the one we chose.
const LOCATION_VARS = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
  'GIT_CEILING_DIRECTORIES',
  'GIT_DISCOVERY_ACROSS_FILESYSTEM',
  'GIT_CONFIG',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_EXTERNAL_DIFF',
  'GIT_DIFF_OPTS',
];

export function gitEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const k of LOCATION_VARS) delete env[k];
  for (const k of Object.keys(env)) if (k.startsWith('GIT_CONFIG_KEY_') || k.startsWith('GIT_CONFIG_VALUE_')) delete env[k];
  return {
    ...env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_EDITOR: 'true',
    GIT_SEQUENCE_EDITOR: 'true',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
    // Paths given to git are paths, never globs or pathspec magic.
    GIT_LITERAL_PATHSPECS: '1',
    LC_ALL: 'C',
    LANG: 'C',
  };
}

// A repository's own config (which whoever made the tree wrote) can name programs for git to
// run: fsmonitor, hooks, an external diff, filter and diff drivers. The command line outranks it.
// The user's global config (git-lfs filters, say) is theirs and is kept.
const SAFE_CONFIG = [
  '-c',
  'core.quotepath=false',
  '-c',
  'color.ui=never',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'diff.external=',
  '-c',
  'core.pager=cat',
  '-c',
  'uploadpack.packObjectsHook=',
  '--no-pager',
];

const DRIVER_KEYS: Record<string, string[]> = { filter: ['clean', 'smudge', 'process'], diff: ['textconv', 'command'], merge: ['driver'] };

/** `-c filter.X.clean=` and friends for every driver the repository's own config defines. */
export function repoDriverOverrides(cwd: string): string[] {
  let gitDir: string | undefined;
  for (let dir = cwd; !gitDir; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    if (existsSync(dotGit)) gitDir = gitDirOf(dotGit) ?? join(dir, '.git');
    else if (dirname(dir) === dir) return [];
  }
  const out: string[] = [];
  for (const file of ['config', 'config.worktree']) {
    let text: string;
    try {
      text = readFileSync(join(gitDir, file), 'utf8');
    } catch {
      continue;
    }
    for (const m of text.matchAll(/^\s*\[\s*(filter|diff|merge)\s+"((?:[^"\\]|\\.)*)"\s*\]/gim)) {
      const section = m[1].toLowerCase();
      for (const key of DRIVER_KEYS[section]) out.push('-c', `${section}.${m[2]}.${key}=`);
    }
  }
  return out;
}

export function git(args: readonly string[], opts: GitOptions): Promise<GitRun> {
  const max = opts.maxBytes ?? 8 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new ToolError('ABORTED', 'git was cancelled before it started'));
    // A session of its own: no controlling terminal, so ssh cannot stop to ask for a passphrase.
    const child = spawn('git', [...SAFE_CONFIG, ...repoDriverOverrides(opts.cwd), ...args], {
      cwd: opts.cwd,
      env: gitEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
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
      reject(spawnError(e, 'git', 'Install git to use the git tools.'));
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

export function gitFailure(args: readonly string[], run: GitRun): ToolError {
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
