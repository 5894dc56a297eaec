// `toolbelt chat` at a terminal shows a tool's output while it runs: a real command through a real
// executor, its chunks on stderr before the result; a pipe gets nothing of it.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Executor, Policy, ToolRegistry } from '@toolbelt/core';
import { shellTools, WorkspaceGuard } from '@toolbelt/tools';
import { afterEach, describe, expect, it } from 'vitest';
import type { Io } from '../command.js';
import { renderEvents, showToolOutput } from './chat-render.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

function setup(tty: boolean) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tb-chat-out-')));
  const executor = new Executor({
    registry: new ToolRegistry().registerAll(shellTools()),
    workspace: new WorkspaceGuard({ roots: [dir] }),
    policy: new Policy({ mode: 'yolo' }),
  });
  cleanup = async () => {
    await executor.close();
    rmSync(dir, { recursive: true, force: true });
  };
  const stderr = Object.assign(new PassThrough(), { isTTY: tty });
  const written: string[] = [];
  stderr.on('data', (d: Buffer) => written.push(d.toString()));
  const io = { stdout: new PassThrough(), stderr, stdin: new PassThrough(), interactive: false } as Io;
  return { executor, io, written };
}

const command = 'echo first; sleep 0.3; echo second';

describe('chat: tool output at a terminal', () => {
  it('writes each chunk to stderr while the command runs', async () => {
    const { executor, io, written } = setup(true);
    const stop = showToolOutput(executor.events, io, 'chat');
    let seenWhileRunning = '';
    const off = executor.events.on((e) => {
      if (e.type === 'tool.result') seenWhileRunning = written.join('');
    });
    const result = await executor.call({ tool: 'shell_exec', input: { command }, sessionId: 'chat' });
    stop();
    off();
    expect(result.status).toBe('success');
    expect(seenWhileRunning).toContain('first');
    expect(seenWhileRunning).toContain('second');
    // Another session's output (another front end on the same executor) is not this chat's.
    await executor.call({ tool: 'shell_exec', input: { command: 'echo elsewhere' }, sessionId: 'other' });
    expect(written.join('')).not.toContain('elsewhere');
  });

  it('writes nothing when stderr is a pipe', async () => {
    const { executor, io, written } = setup(false);
    const stop = showToolOutput(executor.events, io, 'chat');
    await executor.call({ tool: 'shell_exec', input: { command }, sessionId: 'chat' });
    stop();
    expect(written).toEqual([]);
  });
});

describe('chat: the calls it shows', () => {
  it("shows a call's input and outcome with control and bidi characters escaped", () => {
    const { io, written } = setup(true);
    const render = renderEvents(io);
    const call = { id: 'c1', name: 'shell_exec', input: { command: 'ls \u202e\u2066 #\x85' } };
    render({ type: 'tool.call', call } as Parameters<typeof render>[0]);
    const result = { status: 'error', error: { code: 'x', message: 'no\x1b[2K\rpe' } };
    render({ type: 'tool.result', call, result } as unknown as Parameters<typeof render>[0]);
    const text = written.join('');
    expect(JSON.stringify(call.input) + result.error.message).toMatch(/[\u202e\x1b\r]/);
    expect(text).not.toMatch(/[\u202e\u2066\x85\x1b\r]/);
    expect(text).toContain('→ shell_exec {"command":"ls <U+202E><U+2066> #<U+0085>"}');
    expect(text).toContain('← shell_exec: error x: no\\e[2K pe');
  });
});
