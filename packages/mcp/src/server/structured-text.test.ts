// A `json` content block reaches an MCP client as text in the executor's structuredText encoding:
// pretty JSON by default, TOON (or compact JSON, when shorter) with `toon`.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { decode } from '@toon-format/toon';
import { defineTool, Executor, Policy, ToolRegistry, type StructuredText } from '@toolbelt/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolServer } from './server.js';

const rows = Array.from({ length: 12 }, (_, i) => ({ path: `src/f${i}.ts`, lines: 10 * i, changed: i % 3 === 0 }));
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function callWith(structuredText?: StructuredText): Promise<string> {
  const tool = defineTool({
    name: 'files',
    description: 'd',
    effect: 'read',
    input: z.object({}),
    execute: () => ({ content: [{ type: 'json', json: { rows } }] }),
  });
  const executor = new Executor({
    registry: new ToolRegistry().register(tool),
    policy: new Policy({ mode: 'yolo' }),
    ...(structuredText ? { structuredText } : {}),
  });
  const server = new ToolServer({ executor });
  const client = new Client({ name: 'test', version: '1' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
  closers.push(() => client.close());
  const result = await client.callTool({ name: 'files', arguments: {} });
  return (result.content as { type: string; text: string }[])[0]!.text;
}

describe('json blocks over MCP', () => {
  it('are pretty JSON by default', async () => {
    expect(await callWith()).toBe(JSON.stringify({ rows }, null, 2));
  });

  it("are TOON with structuredText: 'toon', a third the size, decoding to the same value", async () => {
    const text = await callWith('toon');
    expect(text.startsWith('rows[12]{path,lines,changed}:\n')).toBe(true);
    expect(text.length * 2).toBeLessThan(JSON.stringify({ rows }, null, 2).length);
    expect(decode(text)).toEqual({ rows });
  });
});
