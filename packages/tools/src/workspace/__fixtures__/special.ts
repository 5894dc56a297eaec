// What the refusals of workspace/special.ts and the walks are tested on: a named pipe, a socket,
// a hard link to a file outside the workspace, symlinks out of it (to a file, to a directory, to
// /proc/self/root), and a watcher that turns a call blocked on the pipe into a failed test.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';

export const SECRET = 'TOP-SECRET-OUTSIDE';

export function mkfifo(path: string): string {
  execFileSync('mkfifo', [path]);
  return path;
}

/** A listening UNIX socket at `path`; close it when done. */
export async function listenSocket(path: string): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, resolve);
  });
  return server;
}

export interface Traps {
  /** A directory beside the root, outside it, holding secret.txt. */
  outside: string;
  /** Paths relative to the root. */
  fifo: 'pipe';
  hardLink: 'hard.txt';
  fileLinkOut: 'link-out.txt';
  dirLinkOut: 'dir-out';
  procRoot: 'procroot';
}

/**
 * Puts every trap into `root`, with the outside directory in `base` (both under the same temp dir,
 * so on one file system, as a hard link needs). `outside/secret.txt` holds SECRET; `outside/big.txt`
 * is over read_file's small-file size and also hard-linked, as `big-hard.txt`.
 */
export function plantTraps(base: string, root: string): Traps {
  const outside = join(base, 'outside');
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), `${SECRET}\n`);
  writeFileSync(join(outside, 'big.txt'), `${SECRET}\n${'x'.repeat(300 * 1024)}\n`);
  mkfifo(join(root, 'pipe'));
  linkSync(join(outside, 'secret.txt'), join(root, 'hard.txt'));
  linkSync(join(outside, 'big.txt'), join(root, 'big-hard.txt'));
  symlinkSync(join(outside, 'secret.txt'), join(root, 'link-out.txt'));
  symlinkSync(outside, join(root, 'dir-out'));
  symlinkSync('/proc/self/root', join(root, 'procroot'));
  return {
    outside,
    fifo: 'pipe',
    hardLink: 'hard.txt',
    fileLinkOut: 'link-out.txt',
    dirLinkOut: 'dir-out',
    procRoot: 'procroot',
  };
}

export interface FifoWatch {
  /** True when the watcher had to open the pipe: something had been blocked on it. */
  rescued(): boolean;
  stop(): void;
}

/**
 * Watches a named pipe from another process. A call blocked opening the pipe would hang the test
 * run (a synchronous open freezes even the test's own timers), so after `afterMs` the watcher
 * leaves a mark and opens the pipe for writing, which unblocks any reader. A test that sees
 * `rescued()` fails: its call did not return on its own. The mark is written in `markDir`, which
 * must be outside what the call searches.
 */
export function watchFifo(fifo: string, markDir: string, afterMs = 8000): FifoWatch {
  const mark = join(markDir, `rescued-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const child = spawn('sh', ['-c', 'sleep "$1"; : > "$2"; exec 3>"$3"', 'sh', String(afterMs / 1000), mark, fifo], {
    stdio: 'ignore',
    detached: true,
  });
  child.unref();
  return {
    rescued: () => existsSync(mark),
    stop() {
      // Its own process group: the sleep goes too.
      if (child.pid !== undefined && child.exitCode === null) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    },
  };
}

/**
 * Runs `call` while `fifos` are watched, and a timer set at the same moment must fire too (the
 * event loop keeps turning). Resolves to the call's result and whether any watcher had to step in.
 */
export async function withoutBlocking<T>(
  fifos: string[],
  markDir: string,
  call: () => Promise<T>,
): Promise<{ result: T; rescued: boolean }> {
  const watches = fifos.map((f) => watchFifo(f, markDir));
  try {
    const [result] = await Promise.all([call(), new Promise((resolve) => setTimeout(resolve, 0))]);
    return { result, rescued: watches.some((w) => w.rescued()) };
  } finally {
    for (const w of watches) w.stop();
  }
}
