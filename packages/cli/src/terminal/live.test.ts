// `toolbelt call` in a real pseudo-terminal (util-linux `script`): a command's output shows as it
// comes, a spinner with the elapsed time shows while the call is quiet, exit codes are coloured,
// and NO_COLOR turns colour off. The command waits for a file the test writes only once it has seen
// the first line and the spinner, so "live" is proven by the order of events, not by timing.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { EventBus } from '@toolbelt/core';
import { closingNotes, LiveCall } from './live.js';
import { TerminalPrompt } from './prompt.js';
import { useIsolatedState } from '../__fixtures__/trust.js';

const BIN = fileURLToPath(new URL('../../bin/toolbelt.js', import.meta.url));
const hasScript = spawnSync('script', ['--version']).status === 0;
if (!hasScript) console.warn('live terminal test skipped: util-linux `script` is not installed');

const root = realpathSync(mkdtempSync(join(tmpdir(), 'tb-live-')));
// Saved approvals go to a state directory of this file's own, not the real home's.
useIsolatedState();
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ESC = String.fromCharCode(27);
const COLOR = new RegExp(`${ESC}\\[3\\dm`);
const SPINNER = /shell_exec \d+\.\ds/;

/** Runs `toolbelt call shell_exec` in a pty; `go` is written once `ready` holds for the output so far. */
function callInPty(env: Record<string, string>, ready: (out: string) => boolean): Promise<string> {
  const input = JSON.stringify({ command: 'echo one; while [ ! -f go ]; do sleep 0.05; done; echo two; exit 3' });
  const cmd = `${process.execPath} ${BIN} call shell_exec '${input}' --yes`;
  const child = spawn('script', ['-qec', cmd, '/dev/null'], {
    cwd: root,
    env: { ...process.env, NO_COLOR: '', FORCE_COLOR: '', ...env },
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      if (ready(out)) writeFileSync(join(root, 'go'), '');
    });
    child.on('error', reject);
    child.on('exit', () => {
      rmSync(join(root, 'go'), { force: true });
      resolve(out);
    });
  });
}

describe.skipIf(!hasScript)('toolbelt call at a terminal', () => {
  it('streams output live, spins while quiet, and colours a failed exit', async () => {
    const out = await callInPty({}, (o) => o.includes('one') && SPINNER.test(o));
    expect(out.indexOf('one')).toBeLessThan(out.search(SPINNER));
    expect(out.search(SPINNER)).toBeLessThan(out.indexOf('two'));
    expect(out).toContain(`${ESC}[31m[exit code 3]`);
    // The output was shown once, live: the result does not print it again.
    expect(out.split('one').length - 1).toBe(1);
  }, 60_000);

  it('prints no colour under NO_COLOR', async () => {
    const out = await callInPty({ NO_COLOR: '1' }, (o) => o.includes('one'));
    expect(out).toContain('[exit code 3]');
    expect(out).toMatch(/two/);
    expect(out).not.toMatch(COLOR);
  }, 60_000);
});

describe('closing notes', () => {
  it('are the bracketed lines a result ends with', () => {
    expect(closingNotes('one\ntwo\n[exit code 3]\n[sandbox: x]')).toBe('[exit code 3]\n[sandbox: x]');
    expect(closingNotes('[stderr]\noops\n[exit code 1]')).toBe('[exit code 1]');
    expect(closingNotes('plain')).toBe('');
  });
});

describe('the spinner and questions', () => {
  it('stays off the terminal while a question is asked there, and comes back after', async () => {
    vi.useFakeTimers();
    try {
      let written = '';
      const terminal = { write: (s: string) => ((written += s), true) } as unknown as NodeJS.WritableStream;
      const live = new LiveCall(new EventBus(), {
        callId: 'c1',
        tool: 'grep',
        stdout: terminal,
        stderr: terminal,
        stream: true,
        spinner: true,
      });
      const prompt = new TerminalPrompt(new PassThrough(), terminal);
      prompt.onDialog = (open) => live.pause(open);
      vi.advanceTimersByTime(1500);
      expect(written).toMatch(/grep 1\.\ds/);
      let answer!: () => void;
      const dialog = prompt.serial(() => new Promise<void>((resolve) => (answer = resolve)));
      await vi.advanceTimersByTimeAsync(0);
      written = '';
      vi.advanceTimersByTime(5000);
      expect(written).not.toMatch(/grep/);
      answer();
      await dialog;
      vi.advanceTimersByTime(1500);
      expect(written).toMatch(/grep \d+\.\ds/);
      live.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
