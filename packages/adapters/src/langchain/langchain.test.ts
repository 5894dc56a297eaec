import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AIMessage, AIMessageChunk, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { ToolCall } from '@langchain/core/messages/tool';
import { FakeChatModel, FakeStreamingChatModel } from '@langchain/core/utils/testing';
import type { ToolResult } from '@toolbelt/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { langchainTools } from '@toolbelt/adapters/langchain';
import { shellTools } from '@toolbelt/tools';
import { PIXEL_PNG, REJECTION, testWorkspace, type TestWorkspace } from '../../../agent/src/__fixtures__/workspace.js';

let ws: TestWorkspace;
beforeEach(() => {
  ws = testWorkspace();
});
afterEach(() => ws.close());

/** One model turn: LangChain's fake chat model, bound to the tools, answers with these tool calls. */
async function modelTurn(tools: ReturnType<typeof langchainTools>, calls: ToolCall[]): Promise<AIMessage> {
  const model = new FakeStreamingChatModel({ chunks: [new AIMessageChunk({ content: '', tool_calls: calls })] });
  return (await model.bindTools(tools).invoke([new HumanMessage('go')])) as AIMessage;
}

/** Runs the model's tool calls the way a LangChain agent does: each tool invoked with its tool call. */
async function runToolCalls(tools: ReturnType<typeof langchainTools>, message: AIMessage): Promise<ToolMessage[]> {
  return Promise.all(
    (message.tool_calls ?? []).map(
      (call) => tools.find((t) => t.name === call.name)!.invoke(call) as Promise<ToolMessage>,
    ),
  );
}

describe('langchainTools', () => {
  it('binds to a chat model in its tool format, with the JSON Schema as parameters', async () => {
    const tools = langchainTools(ws.executor, { tools: ['read_file'] });
    const bound = new FakeStreamingChatModel({}).bindTools(tools) as unknown as {
      config: { tools: { function: { name: string; parameters: unknown } }[] };
    };
    expect(bound.config.tools[0].function).toMatchObject({
      name: 'read_file',
      parameters: { type: 'object', properties: { path: { type: 'string' } } },
    });
  });

  it('runs a read through the executor: a ToolMessage with the text, the ToolResult as artifact', async () => {
    const tools = langchainTools(ws.executor);
    const ai = await modelTurn(tools, [
      { id: 'c1', name: 'read_file', args: { path: 'notes.txt' }, type: 'tool_call' },
    ]);
    const [message] = await runToolCalls(tools, ai);
    expect(message.tool_call_id).toBe('c1');
    expect(message.status).toBe('success');
    expect(message.content).toContain('alpha');
    expect((message.artifact as ToolResult).status).toBe('success');
    expect(ws.log.entries.map((e) => [e.tool, e.status, e.callId])).toEqual([['read_file', 'success', 'c1']]);
  });

  it("a write waits for the executor's approver; its rejection reaches the model as the tool message", async () => {
    const tools = langchainTools(ws.executor);
    const ai = await modelTurn(tools, [
      { id: 'r1', name: 'read_file', args: { path: 'notes.txt' }, type: 'tool_call' },
      { id: 'w1', name: 'write_file', args: { path: 'out.md', content: 'x' }, type: 'tool_call' },
    ]);
    const results = await runToolCalls(tools, ai);
    expect(ws.asked.map((r) => [r.tool, r.callId])).toEqual([['write_file', 'w1']]);
    expect(existsSync(join(ws.dir, 'out.md'))).toBe(false);
    const rejected = results[1];
    expect(rejected.status).toBe('error');
    expect((rejected.artifact as ToolResult).status).toBe('rejected');
    // The next model turn reads the tool messages; LangChain's echoing fake model shows what it was sent.
    const history: BaseMessage[] = [new HumanMessage('go'), ai, ...results];
    const next = await new FakeChatModel({}).invoke(history);
    expect(next.content).toContain(REJECTION);
  });

  it('an error comes back as a tool message with its code, not a thrown exception', async () => {
    const tools = langchainTools(ws.executor);
    const ai = await modelTurn(tools, [
      { id: 'm1', name: 'read_file', args: { path: 'missing.txt' }, type: 'tool_call' },
    ]);
    const [message] = await runToolCalls(tools, ai);
    expect(message.status).toBe('error');
    expect(message.content).toMatch(/^Error \(NOT_FOUND\): /);
  });

  it("input LangChain's own check refuses still reaches the executor: INVALID_PARAMS names the problem", async () => {
    const tools = langchainTools(ws.executor);
    const ai = await modelTurn(tools, [{ id: 'b1', name: 'read_file', args: { pth: 'notes.txt' }, type: 'tool_call' }]);
    const [message] = await runToolCalls(tools, ai);
    expect(message.status).toBe('error');
    expect(message.content).toMatch(/^Error \(INVALID_PARAMS\): .*pth/);
    expect(ws.log.entries.map((e) => [e.tool, e.status, e.callId])).toEqual([['read_file', 'error', 'b1']]);
  });

  it('sends an image a tool returns as a standard image content block', async () => {
    const tools = langchainTools(ws.executor);
    const [message] = await runToolCalls(
      tools,
      await modelTurn(tools, [{ id: 'i1', name: 'read_file', args: { path: 'pixel.png' }, type: 'tool_call' }]),
    );
    expect(message.content).toContainEqual({ type: 'image', data: PIXEL_PNG, mimeType: 'image/png' });
  });

  it('invoked with plain arguments it returns the text the model would read', async () => {
    const [read] = langchainTools(ws.executor, { tools: ['read_file'] });
    expect(await read.invoke({ path: 'notes.txt' })).toContain('beta');
  });

  it("with streamOutput, tells a command's output as custom events while it runs", async () => {
    ws.registry.registerAll(shellTools());
    const [shell] = langchainTools(ws.executor, { tools: ['shell_exec'], streamOutput: true });
    const call = {
      id: 'lc1',
      name: 'shell_exec',
      args: { command: 'for i in 1 2 3; do echo line $i; sleep 0.2; done' },
      type: 'tool_call' as const,
    };
    const chunks: string[] = [];
    let loggedAtFirstChunk: number | undefined;
    let end: ToolMessage | undefined;
    for await (const e of shell.streamEvents(call, { version: 'v2' })) {
      if (e.event === 'on_custom_event' && e.name === 'toolbelt.output') {
        // The execution log gets the call when it ends: the first chunk comes while it still runs.
        loggedAtFirstChunk ??= ws.log.entries.length;
        expect(e.data).toMatchObject({ callId: 'lc1', tool: 'shell_exec', stream: 'stdout' });
        chunks.push((e.data as { chunk: string }).chunk);
      }
      if (e.event === 'on_tool_end') end = e.data.output as ToolMessage;
    }
    expect(loggedAtFirstChunk).toBe(0);
    expect(chunks.join('')).toBe('line 1\nline 2\nline 3\n');
    expect(end?.content).toContain('line 3');
    expect(ws.log.entries.map((x) => [x.tool, x.callId])).toEqual([['shell_exec', 'lc1']]);
  });
});
