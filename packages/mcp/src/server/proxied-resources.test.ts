// The resources and prompts of a proxied server, served to toolbelt's own clients (official SDK on
// both sides, the upstream a real process): resources keep their URI and get `server__` names,
// prompts are `server__prompt`.
import { afterEach, describe, expect, it } from 'vitest';
import { ToolRegistry } from '@toolbelt/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { executorFor, fixture } from '../__fixtures__/servers.js';
import { McpCatalog } from '../client/catalog.js';
import { McpManager } from '../client/manager.js';
import { ToolServer } from './server.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function setup() {
  const registry = new ToolRegistry();
  const manager = new McpManager({ servers: { fx: fixture() }, registry });
  await manager.start();
  cleanup.push(() => manager.close());
  const catalog = new McpCatalog(manager, { judge: () => undefined });
  const server = new ToolServer({
    executor: executorFor(registry),
    resources: [catalog.resources],
    prompts: catalog.prompts,
  });
  cleanup.push(() => server.close());
  const client = new Client({ name: 'c', version: '1' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
  cleanup.push(() => client.close());
  return client;
}

describe('proxied resources and prompts', () => {
  it("lists and reads an upstream server's resource under its own URI", async () => {
    const client = await setup();
    const { resources } = await client.listResources();
    expect(resources).toEqual([expect.objectContaining({ uri: 'note://one', name: 'fx__note', title: 'A note' })]);
    const read = await client.readResource({ uri: 'note://one' });
    expect(read.contents).toEqual([{ uri: 'note://one', text: 'the note says hi' }]);
  });

  it('reads a URI the client did not list first', async () => {
    const client = await setup();
    expect((await client.readResource({ uri: 'note://one' })).contents).toEqual([
      { uri: 'note://one', text: 'the note says hi' },
    ]);
  });

  it('answers an unknown URI with resource-not-found', async () => {
    const client = await setup();
    await expect(client.readResource({ uri: 'note://missing' })).rejects.toMatchObject({ code: -32002 });
  });

  it("lists and gets an upstream server's prompt as server__prompt", async () => {
    const client = await setup();
    const { prompts } = await client.listPrompts();
    expect(prompts).toEqual([expect.objectContaining({ name: 'fx__greeting', description: 'Greets someone.' })]);
    const got = await client.getPrompt({ name: 'fx__greeting', arguments: { name: 'Ada' } });
    expect(got.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Say hello to Ada.' } }]);
    await expect(client.getPrompt({ name: 'fx__nope' })).rejects.toThrow('no prompt named fx__nope');
  });
});
