// The AI SDK adapter hands its tools the framework's model (ctx.llm) when given one: a tool's
// question is one more generateText call of the same model, without tools.
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, Executor, Policy, ToolRegistry } from '@toolbelt/core';
import { aiSdkModel, aiSdkTools } from '@toolbelt/adapters/ai-sdk';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const text = (t: string): LanguageModelV3GenerateResult => ({
  content: [{ type: 'text', text: t }],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage,
  warnings: [],
});
const summarizeCall: LanguageModelV3GenerateResult = {
  content: [
    { type: 'tool-call', toolCallId: 'c1', toolName: 'summarize', input: JSON.stringify({ text: 'a long report' }) },
  ],
  finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
  usage,
  warnings: [],
};

const summarize = defineTool({
  name: 'summarize',
  description: 'Summarizes a text with the model at hand.',
  input: z.object({ text: z.string() }),
  effect: 'read',
  async execute({ text: t }, ctx) {
    if (!ctx.llm) return 'no model';
    return (await ctx.llm.ask({ system: 'One line.', messages: `Summarize: ${t}` })).text;
  },
});

describe('ctx.llm through the AI SDK adapter', () => {
  it("asks the framework's model when the adapter is given it (control: without it the tool has none)", async () => {
    const answers = [summarizeCall, text('A report, shortened.'), text('Done.')];
    const seen: LanguageModelV3CallOptions[] = [];
    const model = new MockLanguageModelV3({
      modelId: 'mock-1',
      doGenerate: async (o) => (seen.push(o), answers.shift()!),
    });
    const executor = new Executor({
      registry: new ToolRegistry().registerAll([summarize]),
      policy: new Policy({ mode: 'safe' }),
    });
    const result = await generateText({
      model,
      prompt: 'summarize',
      tools: aiSdkTools(executor, { llm: aiSdkModel(model) }),
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe('Done.');
    expect(seen[1].tools ?? []).toEqual([]);
    expect(seen[1].prompt).toEqual([
      { role: 'system', content: 'One line.' },
      { role: 'user', content: [{ type: 'text', text: 'Summarize: a long report' }] },
    ]);
    const output = result.steps[0].toolResults[0].output as { content: { text: string }[] };
    expect(output.content[0].text).toBe('A report, shortened.');

    const bare = await executor.call({ tool: 'summarize', input: { text: 'x' } });
    expect(bare.content).toEqual([{ type: 'text', text: 'no model' }]);
    await executor.close();
  });
});
