// ToolServer with groups, driven by the official SDK Client: loading is per client connection,
// and a tool registered later in a loaded group reaches the client with list_changed.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, Executor, Policy, ToolRegistry } from '@toolbelt/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { ToolServer } from './server.js';

const tool = (name: string, group: string) =>
  defineTool({
    name,
    description: `${name}.`,
    input: z.object({}),
    effect: 'read',
    group,
    execute: () => `${name} ran`,
  });

const registry = new ToolRegistry().registerAll([tool('read_file', 'files'), tool('git_log', 'git')]);
const server = new ToolServer({
  executor: new Executor({ registry, policy: new Policy({ mode: 'safe' }) }),
  groups: ['files'],
});
const clients: Client[] = [];

async function connect(onListChanged = () => {}): Promise<Client> {
  const client = new Client({ name: 'test', version: '1' });
  client.setNotificationHandler(ToolListChangedNotificationSchema, onListChanged);
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
  clients.push(client);
  return client;
}

const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name);

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

describe('ToolServer with groups', () => {
  it('loads a group for the client that asked, not for the others', async () => {
    const [one, two] = [await connect(), await connect()];
    await one.callTool({ name: 'load_tools', arguments: { groups: ['git'] } });
    expect(await names(one)).toEqual(['read_file', 'git_log', 'load_tools']);
    expect(await names(two)).toEqual(['read_file', 'load_tools']);
    expect((await one.callTool({ name: 'git_log', arguments: {} })).content).toEqual([
      { type: 'text', text: 'git_log ran' },
    ]);
    expect((await two.callTool({ name: 'git_log', arguments: {} })).isError).toBe(true);
    const description = (await one.listTools()).tools.find((t) => t.name === 'load_tools')!.description;
    expect(description).toBe('Adds tool groups. Not loaded yet:\n(none: every group is loaded)');
  });

  it('shows a tool registered later in a loaded group, after list_changed', async () => {
    let changed = 0;
    const client = await connect(() => void changed++);
    registry.register(tool('write_file', 'files'));
    await expect.poll(() => changed).toBeGreaterThan(0);
    expect(await names(client)).toEqual(['read_file', 'write_file', 'load_tools']);
  });

  it('refuses to start with a group that has no tools', () => {
    expect(
      () =>
        new ToolServer({ executor: new Executor({ registry, policy: new Policy({ mode: 'safe' }) }), groups: ['web'] }),
    ).toThrow('unknown tool group "web"; valid groups: files, git');
  });
});
