import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateText, stepCountIs, streamText, type ModelMessage, type ToolApprovalResponse } from 'ai';
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test';
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aiSdkTools } from '@toolbelt/adapters/ai-sdk';
import { shellTools } from '@toolbelt/tools';
import { PIXEL_PNG, REJECTION, testWorkspace, type TestWorkspace } from '../../../agent/src/__fixtures__/workspace.js';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function toolCalls(...calls: [id: string, tool: string, input: unknown][]): LanguageModelV3GenerateResult {
  return {
    content: calls.map(([toolCallId, toolName, input]) => ({
      type: 'tool-call',
      toolCallId,
      toolName,
      input: JSON.stringify(input),
    })),
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

const done: LanguageModelV3GenerateResult = {
  content: [{ type: 'text', text: 'done' }],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage,
  warnings: [],
};

/** The tool results the model was sent on a later turn, by tool call id. */
function toolResultsSeen(call: LanguageModelV3CallOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const message of call.prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (part.type === 'tool-result') out[part.toolCallId] = part.output;
  }
  return out;
}

let ws: TestWorkspace;
beforeEach(() => {
  ws = testWorkspace();
});
afterEach(() => ws.close());

describe('aiSdkTools', () => {
  it('hands the model every tool with its description and JSON Schema', async () => {
    const model = new MockLanguageModelV3({ doGenerate: done });
    await generateText({ model, tools: aiSdkTools(ws.executor, { tools: ['read_file', 'write_file'] }), prompt: 'hi' });
    const tools = model.doGenerateCalls[0].tools!;
    expect(tools.map((t) => t.name).sort()).toEqual(['read_file', 'write_file']);
    const read = tools.find((t) => t.name === 'read_file');
    expect(read).toMatchObject({
      type: 'function',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
    });
  });

  it('runs a read through the executor and sends its text to the model', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [toolCalls(['c1', 'read_file', { path: 'notes.txt' }]), done],
    });
    const result = await generateText({
      model,
      tools: aiSdkTools(ws.executor),
      prompt: 'read notes',
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe('done');
    const seen = toolResultsSeen(model.doGenerateCalls[1]);
    expect(seen.c1).toMatchObject({ type: 'text', value: expect.stringContaining('beta') });
    expect(ws.log.entries.map((e) => [e.tool, e.status, e.callId])).toEqual([['read_file', 'success', 'c1']]);
  });

  it("holds a write for the SDK's approval and sends the person's denial to the model", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [toolCalls(['w1', 'write_file', { path: 'out.md', content: 'x' }]), done],
    });
    const tools = aiSdkTools(ws.executor);
    const messages: ModelMessage[] = [{ role: 'user', content: 'write out.md' }];
    const first = await generateText({ model, tools, messages });
    const request = first.content.find((p) => p.type === 'tool-approval-request');
    expect(request).toMatchObject({ toolCall: { toolName: 'write_file', toolCallId: 'w1' } });
    expect(existsSync(join(ws.dir, 'out.md'))).toBe(false);

    messages.push(...first.response.messages);
    const denial: ToolApprovalResponse = {
      type: 'tool-approval-response',
      approvalId: request!.approvalId,
      approved: false,
      reason: REJECTION,
    };
    messages.push({ role: 'tool', content: [denial] });
    await generateText({ model, tools, messages });
    expect(toolResultsSeen(model.doGenerateCalls[1]).w1).toMatchObject({ type: 'execution-denied', reason: REJECTION });
    expect(existsSync(join(ws.dir, 'out.md'))).toBe(false);
    expect(ws.asked).toEqual([]);
  });

  it('runs a write the person approved in the SDK, logged as approved by the user', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [toolCalls(['w1', 'write_file', { path: 'out.md', content: 'hello' }]), done],
    });
    const tools = aiSdkTools(ws.executor);
    const messages: ModelMessage[] = [{ role: 'user', content: 'write out.md' }];
    const first = await generateText({ model, tools, messages });
    const request = first.content.find((p) => p.type === 'tool-approval-request')!;
    messages.push(...first.response.messages, {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }],
    });
    await generateText({ model, tools, messages });
    expect(readFileSync(join(ws.dir, 'out.md'), 'utf8')).toBe('hello');
    expect(ws.log.entries.at(-1)).toMatchObject({ tool: 'write_file', status: 'success', approvedBy: 'user' });
  });

  it("with approval 'toolbelt', the executor's approver rejects a write and the model reads why", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [toolCalls(['w1', 'write_file', { path: 'out.md', content: 'x' }]), done],
    });
    const result = await generateText({
      model,
      tools: aiSdkTools(ws.executor, { approval: 'toolbelt' }),
      prompt: 'write',
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe('done');
    expect(ws.asked.map((r) => r.tool)).toEqual(['write_file']);
    const seen = toolResultsSeen(model.doGenerateCalls[1]).w1 as { type: string; reason: string };
    expect(seen.type).toBe('execution-denied');
    expect(seen.reason).toContain(REJECTION);
    expect(ws.log.entries.at(-1)).toMatchObject({ tool: 'write_file', status: 'rejected' });
  });

  it('input the schema refuses reaches the executor, whose INVALID_PARAMS the model reads', async () => {
    const model = new MockLanguageModelV3({ doGenerate: [toolCalls(['b1', 'read_file', { pth: 'notes.txt' }]), done] });
    await generateText({ model, tools: aiSdkTools(ws.executor), prompt: 'read', stopWhen: stepCountIs(3) });
    expect(toolResultsSeen(model.doGenerateCalls[1]).b1).toMatchObject({
      type: 'error-text',
      value: expect.stringMatching(/^Error \(INVALID_PARAMS\): .*pth/),
    });
    expect(ws.log.entries.map((e) => [e.tool, e.status])).toEqual([['read_file', 'error']]);
  });

  it('sends an image a tool returns as image content', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [toolCalls(['i1', 'read_file', { path: 'pixel.png' }]), done],
    });
    await generateText({ model, tools: aiSdkTools(ws.executor), prompt: 'look', stopWhen: stepCountIs(3) });
    const seen = toolResultsSeen(model.doGenerateCalls[1]).i1 as { type: string; value: { type: string }[] };
    expect(seen.type).toBe('content');
    expect(seen.value).toContainEqual({ type: 'image-data', data: PIXEL_PNG, mediaType: 'image/png' });
  });

  it('streams parallel tool calls; an error reaches the model as error text with its code', async () => {
    const chunks: LanguageModelV3StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'tool-call', toolCallId: 'r1', toolName: 'read_file', input: JSON.stringify({ path: 'notes.txt' }) },
      { type: 'tool-call', toolCallId: 'r2', toolName: 'read_file', input: JSON.stringify({ path: 'missing.txt' }) },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
    ];
    const end: LanguageModelV3StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'ok' },
      { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
    ];
    const model = new MockLanguageModelV3({
      doStream: [{ stream: simulateReadableStream({ chunks }) }, { stream: simulateReadableStream({ chunks: end }) }],
    });
    const result = streamText({ model, tools: aiSdkTools(ws.executor), prompt: 'read', stopWhen: stepCountIs(3) });
    expect(await result.text).toBe('ok');
    const seen = toolResultsSeen(model.doStreamCalls[1]);
    expect(seen.r1).toMatchObject({ type: 'text', value: expect.stringContaining('alpha') });
    expect(seen.r2).toMatchObject({ type: 'error-text', value: expect.stringMatching(/^Error \(NOT_FOUND\)/) });
  });

  it("with streamOutput, streams a command's output as preliminary results; the model gets the final result", async () => {
    ws.registry.registerAll(shellTools());
    const command = 'for i in 1 2 3; do echo line $i; sleep 0.3; done';
    const chunks: LanguageModelV3StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'tool-call', toolCallId: 's1', toolName: 'shell_exec', input: JSON.stringify({ command }) },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
    ];
    const end: LanguageModelV3StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
    ];
    const model = new MockLanguageModelV3({
      doStream: [{ stream: simulateReadableStream({ chunks }) }, { stream: simulateReadableStream({ chunks: end }) }],
    });
    const result = streamText({
      model,
      tools: aiSdkTools(ws.executor, { tools: ['shell_exec'], streamOutput: true }),
      prompt: 'count',
      stopWhen: stepCountIs(3),
    });
    const parts: { preliminary?: boolean; output: { status: string; output?: string } }[] = [];
    let loggedAtFirstUpdate: number | undefined;
    for await (const part of result.fullStream) {
      if (part.type !== 'tool-result') continue;
      // The execution log gets the call when it ends: the first update comes while it still runs.
      if (part.preliminary && (part.output as { status: string }).status === 'running')
        loggedAtFirstUpdate ??= ws.log.entries.length;
      parts.push(part as never);
    }
    const running = parts.filter((p) => p.preliminary && p.output.status === 'running').map((p) => p.output.output!);
    expect(loggedAtFirstUpdate).toBe(0);
    expect(running[0]).toContain('line 1');
    // The output grows: each update holds the one before it.
    for (let i = 1; i < running.length; i++) expect(running[i].startsWith(running[i - 1])).toBe(true);
    const final = parts.filter((p) => !p.preliminary);
    expect(final.map((p) => p.output.status)).toEqual(['success']);
    expect(toolResultsSeen(model.doStreamCalls[1]).s1).toMatchObject({
      type: 'text',
      value: expect.stringContaining('line 1\nline 2\nline 3'),
    });
  });
});
