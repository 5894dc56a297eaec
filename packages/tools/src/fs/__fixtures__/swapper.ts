// A process in the workspace racing the file tools: it swaps a directory for a link to a directory
// outside and back, as fast as it can, while the test calls a tool thousands of times.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Prepares `dir` for startSwapper: `real` (a real directory, returned) and `link` (a link to
 * `outside`); the swapper moves each in turn to `d`, so `dir/d` is the directory, the link or nothing.
 */
export function raceTree(dir: string, outside: string): string {
  mkdirSync(join(dir, 'real'), { recursive: true });
  symlinkSync(outside, join(dir, 'link'));
  return join(dir, 'real');
}

/**
 * A child process swapping `dir/d` between `dir/real` and `dir/link`; resolves once it runs. A
 * directory `d` that appears while both are away (created by the tool under test) is removed, so the
 * swapping never stalls.
 */
export function startSwapper(dir: string): Promise<ChildProcess> {
  const script = `
    const { renameSync, rmSync } = require('node:fs');
    const [d, real, link] = ['d', 'real', 'link'].map((n) => require('node:path').join(${JSON.stringify(dir)}, n));
    const mv = (a, b) => { try { renameSync(a, b); return true; } catch { return false; } };
    let n = 0;
    process.stdout.write('go\\n');
    for (;;) {
      mv(real, d); mv(d, real); mv(link, d); mv(d, link);
      // A tool that creates missing parents may have made a new d while neither was there: remove it.
      const stray = d + '.stray' + n++;
      if (!mv(d, stray)) continue;
      try { rmSync(stray, { recursive: true, force: true }); } catch {}
    }
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve) => child.stdout!.once('data', () => resolve(child)));
}

export async function stopSwapper(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}
