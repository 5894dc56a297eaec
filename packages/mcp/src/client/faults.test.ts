// One server missing, one hanging, one dying mid-call: the others keep working, the dead one comes back.
import { realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf, ToolRegistry, type Executor } from '@toolbelt/core';
import { executorFor, filesystem, fixture, tempRoot, until } from '../__fixtures__/servers.js';
import { McpManager } from './manager.js';
import type { ServerStatus } from './connection.js';

describe('McpManager fault isolation', () => {
  const root = realpathSync(tempRoot());
  const registry = new ToolRegistry();
  const statuses: Record<string, ServerStatus[]> = {};
  let manager: McpManager;
  let executor: Executor;

  beforeAll(async () => {
    manager = new McpManager({
      servers: {
        missing: { command: 'toolbelt-no-such-command-3f9a' },
        hang: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], connectTimeoutMs: 500 },
        flaky: fixture(),
        fs: filesystem(root),
        off: { ...fixture(), enabled: false },
        broken: { args: ['nothing to run'] },
      },
      registry,
      restart: { baseDelayMs: 50, maxAttempts: 2 },
      onStatus: (name, s) => void (statuses[name] ??= []).push(s),
    });
    await manager.start();
    executor = executorFor(registry);
  });
  afterAll(async () => {
    await executor.close();
    await manager.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('reports a missing command and a hanging server as failed while the others connect', () => {
    // Retries start at once, so look at the first failure each reported.
    const firstFailure = (name: string) =>
      statuses[name].find((s) => s.state === 'failed') as { reason: string } | undefined;
    expect(firstFailure('missing')?.reason).toMatch(
      /^the command "toolbelt-no-such-command-3f9a" was not found \(ENOENT\); fix "command"/,
    );
    expect(firstFailure('hang')?.reason).toBe('no answer within 500 ms (connectTimeoutMs)');
    expect(manager.status().flaky).toMatchObject({ state: 'connected' });
    expect(manager.status().fs).toMatchObject({ state: 'connected' });
  });

  it('leaves a disabled server alone and says what is wrong with a config that names nothing to run', () => {
    expect(manager.status().off).toEqual({ state: 'disabled' });
    expect(registry.has('off__echo')).toBe(false);
    expect(manager.status().broken).toMatchObject({
      state: 'failed',
      reason: expect.stringContaining('give either "command"'),
    });
  });

  it('gives up after the restart budget and removes nothing that never came', async () => {
    await until(
      () =>
        manager.status().missing.state === 'failed' &&
        (manager.status().missing as { retryInMs?: number }).retryInMs === undefined,
      10_000,
      'missing to give up',
    );
    expect(manager.status().missing).toMatchObject({ attempts: 2 });
    expect(manager.toolsOf('missing')).toEqual([]);
  });

  it('fails the call in flight when its server exits, keeps the others working, and restarts the server', async () => {
    await until(() => manager.status().flaky.state === 'connected', 10_000, 'flaky to connect');
    const pidBefore = manager.connection('flaky')!.pid;
    const [dying, reading] = await Promise.all([
      executor.call({ tool: 'flaky__exit_mid_call' }),
      executor.call({ tool: 'fs__read_text_file', input: { path: join(root, 'hello.txt') } }),
    ]);
    expect(dying.status).toBe('error');
    expect(dying.error?.message).toContain('MCP server "flaky" closed the connection during the exit_mid_call call');
    expect(dying.error?.message).toContain('exiting mid-call on purpose');
    expect(dying.error?.recoverable).toBe(true);
    expect(reading.status).toBe('success');

    // The next call waits for the restart instead of failing.
    const again = await executor.call({ tool: 'flaky__echo', input: { text: 'back' } });
    expect(again.status).toBe('success');
    expect(textOf(again)).toBe('echo: back');
    expect(manager.connection('flaky')!.pid).not.toBe(pidBefore);
    expect(manager.status().flaky).toMatchObject({ state: 'connected', restarts: 1 });
    expect(statuses.flaky.map((s) => s.state)).toEqual([
      'connecting',
      'connected',
      'failed',
      'connecting',
      'connected',
    ]);
  });

  it('fails a call to a server that is down with a message that says so', async () => {
    await until(
      () => (manager.status().missing as { retryInMs?: number }).retryInMs === undefined,
      10_000,
      'missing to give up',
    );
    const call = manager.connection('missing')!.call('anything', {}, { signal: new AbortController().signal });
    await expect(call).rejects.toMatchObject({ code: 'EXECUTION_FAILED', recoverable: true });
    await expect(call).rejects.toThrow(
      /^MCP server "missing" is not connected \(.*ENOENT.*\)\. Its tools are unavailable until it reconnects/,
    );
  });
});
