// An upstream server that elicits during a tool call, behind toolbelt's aggregator: the question
// reaches the downstream MCP client that made the call, and the answer (with the form's defaults
// filled in) reaches the upstream tool. Official SDK on every side; the upstream is a real process.
import { afterEach, describe, expect, it } from 'vitest';
import { ToolRegistry } from '@toolbelt/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { executorFor, fixture } from '../__fixtures__/servers.js';
import { McpManager } from '../client/manager.js';
import { ToolServer } from './server.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function aggregator() {
  const registry = new ToolRegistry();
  const manager = new McpManager({ servers: { fx: fixture() }, registry });
  await manager.start();
  cleanup.push(() => manager.close());
  const server = new ToolServer({ executor: executorFor(registry, 'yolo') });
  cleanup.push(() => server.close());
  return server;
}

async function downstream(server: ToolServer, answer?: (r: ElicitRequest) => ElicitResult) {
  const client = new Client(
    { name: 'person', version: '1' },
    { capabilities: answer ? { elicitation: { form: {} } } : {} },
  );
  if (answer) client.setRequestHandler(ElicitRequestSchema, (r) => answer(r));
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
  cleanup.push(() => client.close());
  return client;
}

const textOf = (r: unknown) => (r as { content: { text: string }[] }).content[0].text;

describe('elicitation through the aggregator', () => {
  it("asks the upstream server's question through the downstream client and returns its answer with defaults", async () => {
    const asked: ElicitRequest[] = [];
    const client = await downstream(
      await aggregator(),
      (r) => (asked.push(r), { action: 'accept', content: { name: 'Grace' } }),
    );
    const result = await client.callTool({ name: 'fx__ask_user', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(textOf(result))).toEqual({
      action: 'accept',
      content: { name: 'Grace', count: 3, color: 'green' },
    });
    expect(asked).toHaveLength(1);
    expect(asked[0].params.message).toBe('MCP server "fx" asks: Which name?');
  });

  it('passes a decline back to the upstream server', async () => {
    const client = await downstream(await aggregator(), () => ({ action: 'decline' }));
    const result = await client.callTool({ name: 'fx__ask_user', arguments: {} });
    expect(JSON.parse(textOf(result))).toEqual({ action: 'decline' });
  });

  it('declines for a downstream client without elicitation, instead of "Method not found"', async () => {
    const client = await downstream(await aggregator());
    const result = await client.callTool({ name: 'fx__ask_user', arguments: {} });
    expect(JSON.parse(textOf(result))).toEqual({ action: 'decline' });
  });
});
