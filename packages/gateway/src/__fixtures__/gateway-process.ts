// Starts gateway-process.mjs (a gateway in a child process) and talks to it; builds dist first.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const script = fileURLToPath(new URL('./gateway-process.mjs', import.meta.url));

/**
 * Brings packages/gateway/dist up to date with its sources (the child runs from dist). Test files
 * running at once build one at a time (a lock directory): the others wait and find it built.
 */
export async function buildGateway(): Promise<void> {
  const lock = join(repo, 'packages/gateway/.build-lock');
  for (let waited = 0; ; waited += 100) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (waited > 120_000) throw new Error(`${lock} stayed for two minutes; remove it if no build is running`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'packages/gateway'], {
      cwd: repo,
      encoding: 'utf8',
    });
    if (tsc.status !== 0)
      throw new Error(`the gateway does not build, so it cannot run in a child process:\n${tsc.stdout}${tsc.stderr}`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface GatewayProcess {
  child: ChildProcess;
  url: string;
  /** The child's RSS after a full GC (needs gc: true). */
  rss(): Promise<number>;
  kill(): Promise<void>;
}

export async function startGatewayProcess(
  db: string,
  o: { schema?: string; gc?: boolean; env?: Record<string, string> } = {},
): Promise<GatewayProcess> {
  const args = [...(o.gc ? ['--expose-gc'] : []), script, db, ...(o.schema ? [o.schema] : [])];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...o.env },
  });
  const [first] = (await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code]) => Promise.reject(new Error(`gateway exited ${code}`))),
  ])) as [{ url: string }];
  return {
    child,
    url: first.url,
    async rss() {
      child.send('rss');
      const [m] = (await once(child, 'message')) as [{ rss: number }];
      return m.rss;
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
  };
}
