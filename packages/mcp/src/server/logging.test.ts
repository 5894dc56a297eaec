// MCP logging with the official SDK client: logging/setLevel picks what a client gets; tool output
// of its own calls arrives as info/notice, server-side warnings reach every client, and an upstream
// server's log notifications come through the aggregator.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, ToolRegistry } from '@toolbelt/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LoggingMessageNotificationSchema, type LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';
import { executorFor, fixture, until } from '../__fixtures__/servers.js';
import { McpManager } from '../client/manager.js';
import { ToolServer } from './server.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const chatty = defineTool({
  name: 'chatty',
  description: 'Writes output.',
  input: z.object({}),
  effect: 'read',
  execute: (_i, ctx) => {
    ctx.emit({ type: 'output', stream: 'stdout', chunk: 'line one\n' });
    ctx.emit({ type: 'output', stream: 'stderr', chunk: 'careful\n' });
    return 'done';
  },
});

async function connect(server: ToolServer) {
  const client = new Client({ name: 'c', version: '1' });
  const logs: LoggingMessageNotification['params'][] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
  cleanup.push(() => client.close());
  return { client, logs };
}

function toolServer(registry = new ToolRegistry().register(chatty)) {
  const server = new ToolServer({ executor: executorFor(registry) });
  cleanup.push(() => server.close());
  return server;
}

describe('logging', () => {
  it('declares logging and sends tool output at the level the client chose', async () => {
    const { client, logs } = await connect(toolServer());
    expect(client.getServerCapabilities()?.logging).toEqual({});
    await client.setLoggingLevel('info');
    await client.callTool({ name: 'chatty', arguments: {} });
    await until(() => logs.length >= 2, 5000, 'two log messages');
    expect(logs).toEqual([
      { level: 'info', logger: 'chatty', data: 'line one\n' },
      { level: 'notice', logger: 'chatty', data: 'careful\n' },
    ]);
  });

  it('sends no tool output before setLevel, and only stderr at notice', async () => {
    const server = toolServer();
    const quiet = await connect(server);
    const notice = await connect(server);
    await notice.client.setLoggingLevel('notice');
    await quiet.client.callTool({ name: 'chatty', arguments: {} });
    await notice.client.callTool({ name: 'chatty', arguments: {} });
    await until(() => notice.logs.length >= 1, 5000, 'a notice');
    server.log('warning', 'a server-side warning', 'toolbelt');
    await until(() => quiet.logs.length >= 1, 5000, 'the warning');
    expect(quiet.logs).toEqual([{ level: 'warning', logger: 'toolbelt', data: 'a server-side warning' }]);
    expect(notice.logs.map((l) => l.data)).toEqual(['careful\n', 'a server-side warning']);
  });

  it('keeps warnings from a client that asked for errors only', async () => {
    const server = toolServer();
    const { client, logs } = await connect(server);
    await client.setLoggingLevel('error');
    server.log('warning', 'not for you');
    server.log('error', 'for you');
    await until(() => logs.length >= 1, 5000, 'the error');
    expect(logs.map((l) => l.data)).toEqual(['for you']);
  });

  it("passes an upstream server's log notifications to onLog", async () => {
    const seen: { server: string; data: unknown }[] = [];
    const manager = new McpManager({
      servers: { fx: fixture() },
      registry: new ToolRegistry(),
      onLog: (server, m) => seen.push({ server, data: m.data }),
    });
    cleanup.push(() => manager.close());
    await manager.start();
    await manager
      .connection('fx')!
      .call('log_line', { text: 'from upstream' }, { signal: new AbortController().signal });
    await until(() => seen.length >= 1, 5000, 'the upstream log');
    expect(seen).toEqual([{ server: 'fx', data: 'from upstream' }]);
  });
});
