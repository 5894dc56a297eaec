// The built CLI as child processes: `toolbelt serve` on an ephemeral port (resolves once it
// listens) and one-shot commands (resolve with their exit code and output). The bundle is rebuilt
// first when a source it is made from is newer, so a test never runs yesterday's CLI.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const bin = join(repo, 'packages/cli/bin/toolbelt.js');
const children = new Set<ChildProcess>();

type Env = Record<string, string | undefined>;

/** Rebuilds the bundle when it is older than any of `sources` (paths from the repository root). */
export function freshBundle(sources: string[]): void {
  const bundle = join(repo, 'packages/cli/dist/bundle/main.js');
  const built = existsSync(bundle) ? statSync(bundle).mtimeMs : 0;
  if (sources.every((s) => statSync(join(repo, s)).mtimeMs < built)) return;
  const out = spawnSync(process.execPath, [join(repo, 'scripts/bundle.mjs')], { cwd: repo, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`the CLI does not bundle:\n${out.stdout}${out.stderr}`);
}

export function serve(args: string[], env: Env): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)\n/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.stderr!.on('data', (d) => (err += d));
    child.on('exit', (code) => reject(new Error(`toolbelt serve exited with ${code}: ${err}${out}`)));
  });
}

export function runCli(args: string[], env: Env): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      children.delete(child);
      resolve({ code, stdout, stderr });
    }),
  );
}

/** Stops every child still running (SIGTERM, then it exits by itself). */
export async function stopChildren(): Promise<void> {
  await Promise.all(
    [...children].map(
      (c) =>
        new Promise<void>((resolve) =>
          c.exitCode !== null ? resolve() : (c.on('exit', () => resolve()), c.kill('SIGTERM')),
        ),
    ),
  );
}
