// Runs a script for real under strace in a scratch workspace and reports what it did that a
// read must not do: write or create a file, or open a network socket. A snapshot of the whole
// scratch tree (workspace, fake home, a directory outside) backs up the trace.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Scratch {
  base: string;
  ws: string;
  home: string;
  outside: string;
  tmp: string;
}

export function hasStrace(): boolean {
  return spawnSync('strace', ['-V'], { stdio: 'ignore' }).status === 0;
}

/** Lays the scratch tree out afresh: the same files before every run. */
export function resetScratch(s: Scratch): void {
  for (const d of [s.ws, s.home, s.outside, s.tmp]) rmSync(d, { recursive: true, force: true });
  for (const d of [s.ws, join(s.ws, 'dir'), s.home, s.outside, s.tmp]) mkdirSync(d, { recursive: true });
  const files: Record<string, string> = {
    [join(s.ws, 'a.txt')]: 'alpha a\nbeta\n',
    [join(s.ws, 'b.txt')]: 'b\n',
    [join(s.ws, 'dir', 'a.txt')]: 'x\n',
    [join(s.ws, '.env')]: 'API_KEY=secret\n',
    [join(s.home, '.bashrc')]: '# rc\n',
    [join(s.outside, 'target.txt')]: 'outside\n',
  };
  for (const [path, text] of Object.entries(files)) writeFileSync(path, text);
}

function snapshot(dir: string, skip: string, out = new Map<string, string>()): Map<string, string> {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (path === skip) continue;
    if (e.isDirectory()) {
      out.set(path, 'dir');
      snapshot(path, skip, out);
    } else if (e.isFile()) {
      const st = statSync(path);
      out.set(path, `${st.mode}:${createHash('sha1').update(readFileSync(path)).digest('hex')}`);
    } else out.set(path, e.isSymbolicLink() ? 'link' : 'other');
  }
  return out;
}

const WRITE_FLAGS = /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND/;
const HARMLESS = /^\/dev\/(null|tty|pts\/\d+|zero|full|stdout|stderr)$/;
const CHANGES =
  /^(\d+ +)?(mkdir|mkdirat|rename|renameat2?|unlink|unlinkat|rmdir|link|linkat|symlink|symlinkat|truncate|chmod|fchmodat|chown|fchownat|lchown|mknod|mknodat|utimensat)\((.*)\) += 0$/;
const OPEN = /^(\d+ +)?(open|openat|creat)\((?:AT_FDCWD|\d+), "((?:[^"\\]|\\.)*)"(?:, ([A-Z_|0-9]+))?.*\) += (\d+)/;
const SOCKET = /^(\d+ +)?socket\((AF_INET6?|PF_INET6?)[^)]*\) += (\d+)/;

/** What the script did that a read must not: each line says what, with the trace's words. */
export function runWatched(s: Scratch, script: string, timeoutMs = 5_000): string[] {
  const trace = join(s.base, 'trace.txt');
  const before = snapshot(s.base, s.tmp);
  spawnSync('strace', ['-f', '-qq', '-o', trace, '-e', 'trace=%file,%network,%desc', 'bash', '-c', script], {
    cwd: s.ws,
    env: { PATH: '/usr/bin:/bin', HOME: s.home, TMPDIR: s.tmp, LANG: 'C' },
    stdio: 'ignore',
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
  });
  let text: string;
  try {
    text = readFileSync(trace, 'utf8');
  } catch {
    return ['strace wrote no trace'];
  }
  rmSync(trace, { force: true });
  const found = traceProblems(text, s.tmp);
  const after = snapshot(s.base, s.tmp);
  for (const [path, sig] of after)
    if (before.get(path) !== sig) found.push(`${before.has(path) ? 'changed' : 'created'} ${path}`);
  for (const path of before.keys()) if (!after.has(path)) found.push(`removed ${path}`);
  return [...new Set(found)];
}

/** What an strace trace (-f, %file,%network,%desc) shows a read must not do: a file opened for writing, created, changed or removed outside `tmp`, or a network socket. */
export function traceProblems(text: string, tmp: string): string[] {
  const found: string[] = [];
  for (const line of text.split('\n')) {
    const open = OPEN.exec(line);
    if (
      open &&
      WRITE_FLAGS.test(open[4] ?? (open[2] === 'creat' ? 'O_CREAT' : '')) &&
      !HARMLESS.test(open[3]) &&
      !open[3].startsWith(tmp)
    ) {
      found.push(`opened ${open[3]} for writing`);
      continue;
    }
    const change = CHANGES.exec(line);
    if (change && !change[3].includes(`"${tmp}`)) found.push(`${change[2]}(${change[3].slice(0, 120)})`);
    const socket = SOCKET.exec(line);
    if (socket) found.push(`opened a network socket (${socket[2]})`);
  }
  return found;
}
