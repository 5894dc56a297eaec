// `toolbelt tools | head` and `toolbelt log | head`: a reader that goes away early is normal, not a
// crash. The test closes the pipe before the command writes, so every write meets EPIPE.
import { spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/toolbelt.js', import.meta.url));
const root = realpathSync(mkdtempSync(join(tmpdir(), 'tb-pipes-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function withClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: root,
    env: { ...process.env, XDG_STATE_HOME: root },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

describe('a closed pipe', () => {
  it.each([['tools'], ['log'], ['--help']])('ends `toolbelt %s` quietly with exit 0', async (command) => {
    const r = await withClosedStdout([command]);
    expect(r.stderr).not.toMatch(/EPIPE|Error/);
    expect(r.code).toBe(0);
  });
});
