// The client over HTTP: server-everything's Streamable HTTP endpoint, and its older SSE endpoint
// reached through the fallback.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf, ToolRegistry, type Executor } from '@toolbelt/core';
import { EVERYTHING_SERVER, executorFor } from '../__fixtures__/servers.js';
import { McpManager } from './manager.js';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function startEverything(mode: 'streamableHttp' | 'sse'): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING_SERVER, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stderr!.on('data', (d) => {
      seen += d;
      if (/listening|running/i.test(seen)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything ${mode} exited with ${code}: ${seen}`)));
  });
  return { child, port };
}

describe('McpManager over HTTP', () => {
  const registry = new ToolRegistry();
  const servers: ChildProcess[] = [];
  let manager: McpManager;
  let executor: Executor;

  beforeAll(async () => {
    const [streamable, sse] = await Promise.all([startEverything('streamableHttp'), startEverything('sse')]);
    servers.push(streamable.child, sse.child);
    manager = new McpManager({
      servers: {
        web: { url: `http://127.0.0.1:${streamable.port}/mcp`, headers: { 'x-test': 'yes' } },
        // No transport named: Streamable HTTP is tried first and refused, then SSE works.
        legacy: { url: `http://127.0.0.1:${sse.port}/sse` },
      },
      registry,
    });
    await manager.start();
    executor = executorFor(registry);
  });
  afterAll(async () => {
    await executor?.close();
    await manager?.close();
    for (const c of servers) c.kill();
  });

  it('connects over Streamable HTTP and calls a tool', async () => {
    expect(manager.status().web).toMatchObject({ state: 'connected', transport: 'http' });
    const result = await executor.call({ tool: 'web__echo', input: { message: 'over http' } });
    expect(result.status).toBe('success');
    expect(textOf(result)).toContain('over http');
  });

  it('falls back to the SSE transport when the server does not speak Streamable HTTP', async () => {
    expect(manager.status().legacy).toMatchObject({ state: 'connected', transport: 'sse' });
    const result = await executor.call({ tool: 'legacy__get-sum', input: { a: 2, b: 3 } });
    expect(result.status).toBe('success');
    expect(textOf(result)).toContain('5');
  });
});
