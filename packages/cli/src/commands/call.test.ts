// `toolbelt call` as a user runs it (the built bin in a child process): a stop signal stops the
// command's whole process group, and input too large or too deep is refused without a crash.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useIsolatedState } from '../__fixtures__/trust.js';

const BIN = fileURLToPath(new URL('../../bin/toolbelt.js', import.meta.url));
let root: string;
// Saved approvals go to a state directory of this file's own, not the real home's.
useIsolatedState();
const started: number[] = [];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'toolbelt-call-'));
});
afterEach(() => {
  // Whatever a failed test left running (pids of processes this test started).
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(root, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function start(args: string[], stdin = '') {
  const child = spawn(process.execPath, [BIN, 'call', ...args], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  child.stdin.on('error', () => {}); // the CLI may stop reading a stream it refuses
  child.stdin.end(stdin);
  const done = new Promise<Run>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

/** Pids of running (not zombie) processes whose command line is exactly `argv`. */
function pidsOf(argv: string[]): number[] {
  const want = argv.join('\0') + '\0';
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8') !== want) continue;
      const state = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.[0];
      if (state !== 'Z' && state !== 'X') out.push(Number(name));
    } catch {
      // exited while we looked
    }
  }
  return out;
}

async function until<T>(probe: () => T | undefined, what: string, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.skipIf(process.platform !== 'linux')('toolbelt call stopped by a signal', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('%s stops the command with everything it started, and exits %i', async (signal, exitCode) => {
    // A duration no other process uses, so the sleep is found by its command line alone.
    const secs = String(300_000 + Math.floor(Math.random() * 600_000));
    const { child, done } = start(['shell_exec', JSON.stringify({ command: `sleep ${secs} & wait` }), '--yes']);
    const sleeper = await until(() => pidsOf(['sleep', secs])[0], 'the sleep to start');
    started.push(sleeper);
    child.kill(signal);
    const r = await done;
    expect(r.signal).toBeNull();
    expect(r.code).toBe(exitCode);
    expect(r.stderr).toContain('error ABORTED: shell_exec was cancelled before it finished.');
    await until(() => (pidsOf(['sleep', secs]).length === 0 ? true : undefined), 'the sleep to be gone', 10_000);
  });
});

describe('toolbelt call with oversized input', () => {
  it('answers 10 MB of input on stdin with INVALID_PARAMS and exit 1', async () => {
    const big = JSON.stringify({ pattern: 'x'.repeat(10 * 1024 * 1024) });
    const r = await start(['grep', '-'], big).done;
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'error INVALID_PARAMS: Invalid parameters for grep: the input is larger than 4,194,304 characters; send less (e.g. a path instead of file contents).\n',
    );
  });

  it('answers JSON nested 100,000 deep with INVALID_PARAMS and exit 1, not a stack overflow', async () => {
    const deep = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    const r = await start(['shell_exec', '-', '--json'], `{"command":"echo hi","x":${deep}}`).done;
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error).toEqual({
      code: 'INVALID_PARAMS',
      recoverable: true,
      message:
        'Invalid parameters for shell_exec: the input nests objects and arrays more than 64 levels deep; send a flatter value.',
    });
    expect(r.stderr).toBe('');
  });

  it('answers a grep pattern over the limit, given as an argument, with INVALID_PARAMS', async () => {
    // An argument cannot carry 10 MB (the kernel refuses it at spawn, E2BIG); 100 KB it can.
    const r = await start(['grep', JSON.stringify({ pattern: 'y'.repeat(100_000) })]).done;
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'error INVALID_PARAMS: Invalid parameters for grep: `pattern` is 100,000 characters; the limit is 10,000.',
    );
  });
});
