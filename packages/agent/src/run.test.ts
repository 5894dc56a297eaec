// The loop's ordering of tool calls, through a real executor and a local server speaking the Messages API.
import { defineTool, Executor, Policy, ToolRegistry } from '@toolbelt/core';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anthropicModel, runAgent } from '@toolbelt/agent';
import { anthropicStream } from './__fixtures__/anthropic.js';
import { providerServer, type ProviderServer } from './__fixtures__/server.js';

let server: ProviderServer;
afterEach(() => server.close());

/** Reads that finish only once both have started: run one after the other, they would time out. */
function tools(order: string[]) {
  let arrived = 0;
  let release!: () => void;
  const both = new Promise<void>((resolve) => (release = resolve));
  const meet = defineTool({
    name: 'meet',
    description: 'Waits for its peer.',
    effect: 'read',
    timeoutMs: 10_000,
    input: z.object({ id: z.string() }),
    execute: async ({ id }) => {
      order.push(`start ${id}`);
      if (++arrived === 2) release();
      await both;
      order.push(`end ${id}`);
      return id;
    },
  });
  const look = defineTool({
    name: 'look',
    description: 'A read.',
    effect: 'read',
    input: z.object({ id: z.string() }),
    execute: ({ id }) => `${order.push(`look ${id}`)}`,
  });
  const note = defineTool({
    name: 'note',
    description: 'A write.',
    effect: 'write',
    input: z.object({ id: z.string() }),
    execute: ({ id }) => `${order.push(`write ${id}`)}`,
  });
  return [meet, look, note];
}

describe('runAgent tool calls', () => {
  it('runs consecutive reads together and a write alone, in the order the model gave', async () => {
    const order: string[] = [];
    const executor = new Executor({
      registry: new ToolRegistry().registerAll(tools(order)),
      policy: new Policy({ mode: 'yolo' }),
    });
    server = await providerServer([
      {
        named: true,
        sse: anthropicStream('', [
          { id: 't1', name: 'meet', input: { id: 'a' } },
          { id: 't2', name: 'meet', input: { id: 'b' } },
          { id: 't3', name: 'note', input: { id: 'w' } },
          { id: 't4', name: 'look', input: { id: 'c' } },
        ]),
      },
      { named: true, sse: anthropicStream('done') },
    ]);
    const run = await runAgent({
      executor,
      model: anthropicModel({ model: 'm', apiKey: 'k', baseURL: server.url }),
      prompt: 'go',
    });
    expect(run.stop).toBe('done');
    expect(order.slice(0, 2)).toEqual(['start a', 'start b']);
    expect(order.slice(2, 4).sort()).toEqual(['end a', 'end b']);
    expect(order.slice(4)).toEqual(['write w', 'look c']);
    const results = server.requests[1].body.messages[2].content;
    expect(results.map((r: { tool_use_id: string; is_error: boolean }) => [r.tool_use_id, r.is_error])).toEqual([
      ['t1', false],
      ['t2', false],
      ['t3', false],
      ['t4', false],
    ]);
  });

  it("tells the approver where the call comes from: the model's words before it, else the task", async () => {
    const asked: (string | undefined)[] = [];
    const executor = new Executor({
      registry: new ToolRegistry().registerAll(tools([])),
      policy: new Policy({ mode: 'safe' }),
      approver: async (r) => (asked.push(r.context), { outcome: 'approve' }),
    });
    server = await providerServer([
      {
        named: true,
        sse: anthropicStream('I will note the login fix.', [{ id: 't1', name: 'note', input: { id: 'a' } }]),
      },
      { named: true, sse: anthropicStream('', [{ id: 't2', name: 'note', input: { id: 'b' } }]) },
      { named: true, sse: anthropicStream('done') },
    ]);
    await runAgent({
      executor,
      model: anthropicModel({ model: 'm', apiKey: 'k', baseURL: server.url }),
      prompt: 'Fix the login bug',
    });
    expect(asked).toEqual(['I will note the login fix.', 'Fix the login bug']);
  });

  it('refuses to start without a prompt or a turn limit below one', async () => {
    const executor = new Executor({ registry: new ToolRegistry() });
    server = await providerServer([]);
    const model = anthropicModel({ model: 'm', apiKey: 'k', baseURL: server.url });
    await expect(runAgent({ executor, model })).rejects.toThrow('runAgent needs a prompt or messages to start from');
    await expect(runAgent({ executor, model, prompt: 'x', maxTurns: 0 })).rejects.toThrow(
      'maxTurns must be a positive integer, not 0',
    );
    expect(server.requests).toHaveLength(0);
  });
});
