// A tool asks the model of the MCP client that called it (ctx.llm): sampling/createMessage through
// the official SDK client, which declares sampling; a client without it gives the tool no model.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, Executor, Policy, ToolRegistry } from '@toolbelt/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  CreateMessageRequestSchema,
  type CreateMessageRequest,
  type CreateMessageResult,
} from '@modelcontextprotocol/sdk/types.js';
import { ToolServer } from './server.js';

const summarize = defineTool({
  name: 'summarize',
  description: 'Summarizes a text with the model at hand.',
  input: z.object({ text: z.string() }),
  effect: 'read',
  async execute({ text }, ctx) {
    if (!ctx.llm) return 'no model here: the text as it is: ' + text;
    const answer = await ctx.llm.ask({
      system: 'One line.',
      messages: [{ role: 'user', text: `Summarize: ${text}` }],
      maxTokens: 64,
    });
    return `${answer.model} says: ${answer.text}`;
  },
});

const open: { client: Client; server: ToolServer }[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) {
    await s.client.close();
    await s.server.close();
  }
});

async function connect(
  sample?: (req: CreateMessageRequest) => CreateMessageResult | Promise<CreateMessageResult>,
): Promise<Client> {
  const executor = new Executor({
    registry: new ToolRegistry().registerAll([summarize]),
    policy: new Policy({ mode: 'safe' }),
  });
  const server = new ToolServer({ executor });
  const client = new Client({ name: 'test', version: '1' }, { capabilities: sample ? { sampling: {} } : {} });
  if (sample) client.setRequestHandler(CreateMessageRequestSchema, (req) => sample(req));
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
  open.push({ client, server });
  return client;
}

const text = (r: Awaited<ReturnType<Client['callTool']>>) => (r.content as { type: string; text: string }[])[0].text;

describe('ctx.llm over MCP sampling', () => {
  it("asks the calling client's model with sampling/createMessage and hands the tool its answer", async () => {
    const asked: CreateMessageRequest['params'][] = [];
    const client = await connect((req) => {
      asked.push(req.params);
      return { role: 'assistant', model: 'client-model-1', content: { type: 'text', text: 'A long text, shortened.' } };
    });
    const r = await client.callTool({ name: 'summarize', arguments: { text: 'a long text' } });
    expect(r.isError).toBeFalsy();
    expect(text(r)).toBe('client-model-1 says: A long text, shortened.');
    expect(asked).toEqual([
      expect.objectContaining({
        systemPrompt: 'One line.',
        maxTokens: 64,
        messages: [{ role: 'user', content: { type: 'text', text: 'Summarize: a long text' } }],
      }),
    ]);
  });

  it('gives the tool no model when the client does not offer sampling (control: the same tool, with a client that does)', async () => {
    const without = await connect();
    expect(text(await without.callTool({ name: 'summarize', arguments: { text: 'x' } }))).toBe(
      'no model here: the text as it is: x',
    );
    const withSampling = await connect(() => ({
      role: 'assistant',
      model: 'm',
      content: { type: 'text', text: 'short' },
    }));
    expect(text(await withSampling.callTool({ name: 'summarize', arguments: { text: 'x' } }))).toBe('m says: short');
  });

  it("a client's refusal to sample is the tool's error, which the model reads", async () => {
    const client = await connect(() => {
      throw new Error('the user declined the sampling request');
    });
    const r = await client.callTool({ name: 'summarize', arguments: { text: 'x' } });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain('the user declined the sampling request');
  });
});
