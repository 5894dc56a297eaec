// A long-lived `git cat-file --batch-check` per repository: what a revision names, asked without
// starting a process per question (two per revision cost 5-15 ms; a line to a running one costs
// well under a millisecond). The classifier is synchronous, so it talks to git through two named
// pipes it opens itself: it writes a line and polls its end of the answer pipe, with a deadline.
// git runs with the classifier's other git reads' arguments and environment (gitArgs, gitEnv),
// and only after repoFacts found the repository's config free of programs; `--batch-check` prints
// names and types, never content, and runs no filter or textconv. A process serves one state of
// the history (historyKey) and of the config: when refs move or the config changes it is replaced,
// and the answers it gave are kept for that state only. It never keeps Node alive (unref'd, no
// stream handles), ends when its stdin closes (our exit), and closeObjectReaders() kills them all.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  constants,
  lstatSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { dotGitAbove, gitDirOf } from '../../../workspace/git-dir.js';
import { gitArgs, gitEnv, TIMEOUT_MS } from './git-history.js';

/** What one name resolves to: an object id and its type, or missing / ambiguous. */
export type Resolved = { oid: string; type: string } | 'missing' | 'ambiguous';

interface Reader {
  key: string;
  child: ChildProcess;
  /** Our end of git's stdin (written) and of its stdout (read, non-blocking). */
  toGit: number;
  fromGit: number;
  pending: string;
  /** Answers kept for this state of the history (see remembered). */
  answers: Map<string, Resolved>;
}

const MAX_INPUT = 16 * 1024;
const readers = new Map<string, Reader>();
const sleeper = new Int32Array(new SharedArrayBuffer(4));
let exitHook = false;

function start(cwd: string, gitDir: string | undefined, key: string): Reader | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'toolbelt-git-'));
  const [inPath, outPath] = [join(dir, 'in'), join(dir, 'out')];
  const fds: number[] = [];
  try {
    if (spawnSync('mkfifo', ['-m', '600', inPath, outPath]).status !== 0) return undefined;
    // Our ends first, so that git's blocking ends open at once.
    const toGit = openSync(inPath, constants.O_RDWR);
    fds.push(toGit);
    const fromGit = openSync(outPath, constants.O_RDONLY | constants.O_NONBLOCK);
    fds.push(fromGit);
    const gitIn = openSync(inPath, constants.O_RDONLY);
    const gitOut = openSync(outPath, constants.O_WRONLY);
    const child = spawn('git', gitArgs(gitDir, ['cat-file', '--batch-check=%(objectname) %(objecttype)']), {
      cwd,
      env: gitEnv(),
      stdio: [gitIn, gitOut, 'ignore'],
    });
    closeSync(gitIn);
    closeSync(gitOut);
    child.on('error', () => undefined);
    child.unref();
    if (!exitHook) {
      exitHook = true;
      process.once('exit', closeObjectReaders);
    }
    return { key, child, toGit, fromGit, pending: '', answers: new Map() };
  } catch {
    for (const fd of fds) closeSync(fd);
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function stop(id: string, r: Reader): void {
  readers.delete(id);
  r.child.kill('SIGKILL');
  closeSync(r.toGit);
  closeSync(r.fromGit);
}

function fileStamp(path: string): string {
  try {
    const st = lstatSync(path, { bigint: true });
    return `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return '-';
  }
}

/**
 * The repository's config files, by inode, size and times: git reads its config once, when it
 * starts (`@{upstream}` follows it), so a process serves one state of the config too.
 */
function configStamp(cwd: string, gitDir: string | undefined): string {
  const above = gitDir ? undefined : dotGitAbove(cwd);
  const dir = gitDir ?? (above ? gitDirOf(join(above, '.git')) : undefined);
  if (!dir) return '';
  let common = dir;
  try {
    common = resolve(dir, readFileSync(join(dir, 'commondir'), 'utf8').trim());
  } catch {
    // not a linked worktree
  }
  return `${fileStamp(join(common, 'config'))}|${fileStamp(join(dir, 'config.worktree'))}`;
}

/** Reads until `n` whole lines came, or the deadline passed (undefined). */
function readLines(r: Reader, n: number): string[] | undefined {
  const buf = Buffer.alloc(64 * 1024);
  const deadline = performance.now() + TIMEOUT_MS;
  let lines = r.pending.split('\n');
  while (lines.length <= n) {
    let got: number;
    try {
      got = readSync(r.fromGit, buf, 0, buf.length, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') return undefined;
      if (performance.now() > deadline) return undefined;
      Atomics.wait(sleeper, 0, 0, 0.1);
      continue;
    }
    if (got === 0) return undefined; // git ended
    r.pending += buf.toString('utf8', 0, got);
    lines = r.pending.split('\n');
  }
  r.pending = lines.slice(n).join('\n');
  return lines.slice(0, n);
}

/**
 * Whether an answer holds while the history's key does: an object a name resolves to does (objects
 * never change, and what refs and reflogs point at is in the key); that a name resolves to nothing
 * holds only when no part of it could be an abbreviated hash of an object written since.
 */
function remembered(name: string, answer: Resolved): boolean {
  return typeof answer !== 'string' || (answer === 'missing' && !/[0-9a-f]{4}/i.test(name));
}

function parse(line: string): Resolved {
  const m = /^([0-9a-f]{40}|[0-9a-f]{64}) (commit|tag|tree|blob)$/.exec(line);
  if (m) return { oid: m[1], type: m[2] };
  return line.endsWith(' missing') ? 'missing' : 'ambiguous';
}

/**
 * What each name resolves to in the repository at `cwd` (`gitDir` as for git()), whose history is
 * in state `key`; undefined when git could not answer in time. A name must hold no line break.
 */
export function resolveNames(
  cwd: string,
  gitDir: string | undefined,
  key: string,
  names: readonly string[],
): Resolved[] | undefined {
  // A line break would split a name; a long input could fill the pipe before git reads it.
  if (names.some((n) => /[\n\r\0]/.test(n)) || names.join('\n').length > MAX_INPUT) return undefined;
  const fresh = new Map<string, Resolved>();
  const id = `${cwd}\0${gitDir ?? ''}`;
  key = `${key}\0${configStamp(cwd, gitDir)}`;
  let r = readers.get(id);
  if (r && r.key !== key) stop(id, r);
  r = readers.get(id);
  if (!r) {
    r = start(cwd, gitDir, key);
    if (!r) return undefined;
    if (readers.size >= 8) closeObjectReaders();
    readers.set(id, r);
  }
  const asked = [...new Set(names.filter((n) => !r.answers.has(n)))];
  if (asked.length) {
    const lines = ask(id, r, asked);
    if (!lines) return undefined;
    for (const [i, n] of asked.entries()) {
      const answer = parse(lines[i]);
      if (remembered(n, answer)) r.answers.set(n, answer);
      else fresh.set(n, answer);
    }
  }
  return names.map((n) => r.answers.get(n) ?? fresh.get(n)!);
}

/** The answer lines to `names`, from the running git; undefined (and the process stopped) when it fails. */
function ask(id: string, r: Reader, names: string[]): string[] | undefined {
  try {
    writeSync(r.toGit, names.map((n) => `${n}\n`).join(''));
  } catch {
    stop(id, r);
    return undefined;
  }
  const lines = readLines(r, names.length);
  if (!lines) stop(id, r);
  return lines;
}

/** The process ids of the running git processes (for tests). */
export function objectReaderPids(): number[] {
  return [...readers.values()].flatMap((r) => (r.child.pid === undefined ? [] : [r.child.pid]));
}

/** Ends every git process started here (the shell tools' dispose, and our exit). */
export function closeObjectReaders(): void {
  for (const [id, r] of [...readers]) stop(id, r);
}
