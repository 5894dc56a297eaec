// A tool run by runAgent asks the loop's own model (ctx.llm): one plain turn of the provider, with
// no tools, over the same API as the loop (a local Chat Completions server here).
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, Executor, Policy, ToolRegistry } from '@toolbelt/core';
import { openaiChatModel, runAgent } from '@toolbelt/agent';
import { chatStream } from './__fixtures__/openai.js';
import { providerServer, type ProviderServer } from './__fixtures__/server.js';

let server: ProviderServer;
afterEach(async () => {
  await server?.close();
});

const summarize = defineTool({
  name: 'summarize',
  description: 'Summarizes a text with the model at hand.',
  input: z.object({ text: z.string() }),
  effect: 'read',
  async execute({ text }, ctx) {
    if (!ctx.llm) return 'no model';
    const answer = await ctx.llm.ask({ system: 'One line.', messages: `Summarize: ${text}`, maxTokens: 64 });
    return `${answer.model}: ${answer.text}`;
  },
});

describe('ctx.llm in runAgent', () => {
  it("is the loop's model: the tool's question is one more request to the provider, without tools", async () => {
    server = await providerServer([
      { sse: chatStream('', [{ id: 'call_1', name: 'summarize', input: { text: 'a very long report' } }]) },
      { sse: chatStream('A report, shortened.') },
      { sse: chatStream('Summarized.') },
    ]);
    const executor = new Executor({
      registry: new ToolRegistry().registerAll([summarize]),
      policy: new Policy({ mode: 'safe' }),
    });
    const model = openaiChatModel({ model: 'gpt-test', apiKey: 'k', baseURL: `${server.url}/v1` });
    const run = await runAgent({ executor, model, prompt: 'summarize the report' });
    expect(run).toMatchObject({ stop: 'done', text: 'Summarized.', turns: 2 });
    const asked = server.requests[1].body;
    expect(asked.tools).toBeUndefined();
    expect(asked.max_completion_tokens).toBe(64);
    expect(asked.messages).toEqual([
      { role: 'system', content: 'One line.' },
      { role: 'user', content: 'Summarize: a very long report' },
    ]);
    const result = server.requests[2].body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(result.content).toBe('gpt-test: A report, shortened.');
    // Control: the same tool called outside the loop has no model to ask.
    expect((await executor.call({ tool: 'summarize', input: { text: 'x' } })).content).toEqual([
      { type: 'text', text: 'no model' },
    ]);
    await executor.close();
  });
});
