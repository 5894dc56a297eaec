// Runs one command for real in the read-only sandbox (bubblewrap: everything read-only, a private
// /tmp, no network, secrets hidden) under strace, and reads the trace: what it wrote or tried to
// write, which programs it started, whether it opened a network socket.
import { spawn } from 'node:child_process';
import { basename, isAbsolute, join } from 'node:path';
import type { Confinement } from '../../../../sandbox/sandbox.js';
import { traceProblems } from '../watch.js';

export interface Jailed {
  code: number | null;
  timedOut: boolean;
  /** stdout and stderr together. */
  out: string;
  trace: string;
}

const TRACE = ['-f', '-qq', '-e', 'trace=%file,%network,%desc,%process', '-o', '|cat >&3'];

/** `script` run by bash under strace in the confinement; the trace comes back on fd 3. */
export function runJailed(
  c: Confinement,
  script: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
  timeoutMs = 4_000,
): Promise<Jailed> {
  const inv = c.wrap({ file: '/usr/bin/strace', args: [...TRACE, 'bash', '-c', script] });
  return new Promise((resolve, reject) => {
    const child = spawn(inv.file, inv.args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    let out = '';
    let trace = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout!.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString('utf8')));
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => (trace += d.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, timedOut, out, trace });
    });
  });
}

// Programs a command runs on its own behalf: xargs's default echo, the gzip behind zcat and tar,
// git's own helpers, the node that npm (a JavaScript program) runs in.
const HELPERS: Record<string, readonly string[]> = {
  xargs: ['echo'],
  zcat: ['gzip'],
  zmore: ['gzip', 'more'],
  zless: ['gzip', 'less'],
  egrep: ['grep'],
  fgrep: ['grep'],
  tar: ['gzip', 'bzip2', 'xz'],
  npm: ['node'],
};

/** The programs a command names, and those they run on its behalf. */
export function ownPrograms(command: string): Set<string> {
  const own = new Set(['bash', 'sh']);
  for (const w of command.split(/[^\w.+-]+/)) {
    if (!w) continue;
    own.add(w);
    for (const h of HELPERS[w] ?? []) own.add(h);
  }
  return own;
}

const EXEC = /^(\d+ +)?execve\("((?:[^"\\]|\\.)*)", .*\) = 0$/;
const WRITE_TRY =
  /^(\d+ +)?(open|openat|creat|mkdir|mkdirat|rename|renameat2?|unlink|unlinkat|rmdir|link|linkat|symlink|symlinkat|truncate|chmod|fchmodat|utimensat)\((?:AT_FDCWD, |\d+, )?"((?:[^"\\]|\\.)*)"(.*)= -1 (EROFS|EACCES|EPERM)/;

/** Programs started that are neither the command's own nor outside the workspace. */
export function foreignExecs(trace: string, command: string, ws: string): string[] {
  const own = ownPrograms(command);
  const found: string[] = [];
  for (const line of trace.split('\n')) {
    const m = EXEC.exec(line);
    if (!m) continue;
    const name = basename(m[2]);
    const path = isAbsolute(m[2]) ? m[2] : join(ws, m[2]);
    if (path.startsWith(`${ws}/`)) found.push(`ran ${m[2]} from the workspace`);
    else if (!own.has(name) && !(own.has('git') && /\/git-core\//.test(m[2]))) found.push(`ran ${m[2]}`);
  }
  return [...new Set(found)];
}

/** Writes the read-only sandbox refused: harmless there, a write where there is no sandbox. */
export function refusedWrites(trace: string): string[] {
  const found: string[] = [];
  for (const line of trace.split('\n')) {
    const m = WRITE_TRY.exec(line);
    if (!m || m[3] === '/dev/tty') continue;
    if ((m[2] === 'open' || m[2] === 'openat') && !/O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND/.test(m[4])) continue;
    found.push(`${m[2]} ${m[3]} (${m[5]})`);
  }
  return [...new Set(found)];
}

export interface Verdict {
  /** What a read must never do: a write outside the private /tmp, a network socket, a foreign program. */
  problems: string[];
  /** Writes the sandbox refused. */
  refused: string[];
  /** A program was not found, or the command did not finish in time. */
  incomplete?: string;
}

export function judge(run: Jailed, command: string, ws: string): Verdict {
  const problems = [...new Set([...traceProblems(run.trace, '/tmp'), ...foreignExecs(run.trace, command, ws)])];
  if (!run.trace.trim()) problems.push('strace wrote no trace');
  const incomplete = run.timedOut
    ? 'did not finish in time'
    : run.code === 127 || /command not found|No such file or directory.*\bexec/.test(run.out)
      ? 'a program is missing'
      : undefined;
  return { problems, refused: refusedWrites(run.trace), ...(incomplete ? { incomplete } : {}) };
}
