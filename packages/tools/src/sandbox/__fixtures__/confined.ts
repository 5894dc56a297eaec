// Runs scripts for real in a Sandbox's confinement, and builds the workspaces the sandbox tests
// plant secrets in. Scratch directories live under /var/tmp: the sandbox gives every command a
// private /tmp, so a marker written to the real /tmp could not tell a leak from a private write.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { bashInvocation } from '../../process/limits.js';
import type { Confinement } from '../sandbox.js';
import type { Invocation } from '../../process/limits.js';

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr together. */
  out: string;
}

export function runInvocation(inv: Invocation, cwd?: string): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(inv.file, inv.args, { stdio: ['ignore', 'pipe', 'pipe'], ...(cwd ? { cwd } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr, out: stdout + stderr }));
  });
}

/** `script` run by bash inside the confinement. */
export function runConfined(c: Confinement, script: string, cwd?: string): Promise<Ran> {
  return runInvocation(c.wrap(bashInvocation(script)), cwd);
}

const made: string[] = [];

/** A fresh real directory under `base` (default /var/tmp), removed by cleanupScratch. */
export function scratchDir(prefix: string, base = '/var/tmp'): string {
  const dir = realpathSync(mkdtempSync(join(base, prefix)));
  made.push(dir);
  return dir;
}

export function cleanupScratch(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** Writes files (path → content) under `dir`, making their directories. */
export function plant(dir: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
}

/** A marker no file or script holds by chance. */
export function marker(name: string): string {
  return `TBSECRET-${name}-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
}
