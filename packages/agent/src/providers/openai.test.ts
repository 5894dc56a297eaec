import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openaiChatModel, openaiResponsesModel, runAgent, type AgentEvent } from '@toolbelt/agent';
import { chatStream, responsesStream } from '../__fixtures__/openai.js';
import { providerServer, type ProviderServer } from '../__fixtures__/server.js';
import { PIXEL_PNG, REJECTION, testWorkspace, type TestWorkspace } from '../__fixtures__/workspace.js';

let ws: TestWorkspace;
let server: ProviderServer;
beforeEach(() => {
  ws = testWorkspace();
});
afterEach(async () => {
  await server?.close();
  await ws.close();
});

const calls = [
  { id: 'call_1', name: 'read_file', input: { path: 'notes.txt' } },
  { id: 'call_2', name: 'read_file', input: { path: 'big.txt' } },
  { id: 'call_3', name: 'write_file', input: { path: 'out.md', content: 'x' } },
];

function texts(events: AgentEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'text' ? [e.delta] : []));
}

describe('runAgent over OpenAI Chat Completions', () => {
  it('streams, runs the parallel tool calls through the executor and answers each by its id', async () => {
    server = await providerServer([{ sse: chatStream('On it.', calls) }, { sse: chatStream('Done.') }]);
    const events: AgentEvent[] = [];
    const model = openaiChatModel({ model: 'gpt-test', apiKey: 'sk-test', baseURL: `${server.url}/v1` });
    const run = await runAgent({
      executor: ws.executor,
      model,
      system: 'Be brief.',
      prompt: 'go',
      maxResultChars: 1000,
      onEvent: (e) => events.push(e),
    });
    expect(run).toMatchObject({ stop: 'done', text: 'Done.', turns: 2, usage: { inputTokens: 60, outputTokens: 24 } });
    expect(texts(events)).toEqual(['On ', 'it.', 'Don', 'e.']);

    const [first, second] = server.requests;
    expect(first.url).toBe('/v1/chat/completions');
    expect(first.headers.authorization).toBe('Bearer sk-test');
    expect(first.body).toMatchObject({
      model: 'gpt-test',
      stream: true,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'go' },
      ],
    });
    expect(first.body.tools[0]).toMatchObject({
      type: 'function',
      function: { name: expect.any(String), parameters: { type: 'object' } },
    });

    const sent = second.body.messages;
    expect(sent[2]).toMatchObject({
      role: 'assistant',
      content: 'On it.',
      tool_calls: [{ id: 'call_1' }, { id: 'call_2' }, { id: 'call_3' }],
    });
    expect(JSON.parse(sent[2].tool_calls[0].function.arguments)).toEqual({ path: 'notes.txt' });
    const tools = sent.filter((m: { role: string }) => m.role === 'tool');
    expect(tools.map((m: { tool_call_id: string }) => m.tool_call_id)).toEqual(['call_1', 'call_2', 'call_3']);
    expect(tools[0].content).toContain('alpha');
    expect(tools[1].content).toContain('characters omitted');
    expect(tools[2].content).toContain(REJECTION);
    expect(ws.asked.map((r) => r.tool)).toEqual(['write_file']);
  });

  it('a tool call whose arguments are not JSON gets INVALID_PARAMS back, and the loop goes on', async () => {
    const broken = chatStream('', [{ id: 'call_1', name: 'read_file', input: {}, raw: '{path: notes.txt' }]);
    server = await providerServer([{ sse: broken }, { sse: chatStream('ok') }]);
    const model = openaiChatModel({ model: 'gpt-test', apiKey: 'k', baseURL: `${server.url}/v1` });
    const run = await runAgent({ executor: ws.executor, model, prompt: 'go' });
    expect(run.stop).toBe('done');
    const tool = server.requests[1].body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(tool.content).toMatch(/^Error \(INVALID_PARAMS\): .*input must be an object; got "\{path: notes.txt"/);
  });
});

describe('images from tool results', () => {
  const look = [{ id: 'call_i', name: 'read_file', input: { path: 'pixel.png' } }];

  it('Chat Completions: the tool message names the image, which follows in one user message', async () => {
    server = await providerServer([{ sse: chatStream('', look) }, { sse: chatStream('A pixel.') }]);
    await runAgent({
      executor: ws.executor,
      model: openaiChatModel({ model: 'm', apiKey: 'k', baseURL: `${server.url}/v1` }),
      prompt: 'look',
    });
    const sent = server.requests[1].body.messages;
    expect(sent[2]).toMatchObject({
      role: 'tool',
      tool_call_id: 'call_i',
      content: expect.stringContaining('[image image/png]'),
    });
    expect(sent[3].role).toBe('user');
    expect(sent[3].content).toContainEqual({
      type: 'image_url',
      image_url: { url: `data:image/png;base64,${PIXEL_PNG}` },
    });
  });

  it('Responses: the function call output carries the image', async () => {
    server = await providerServer([{ sse: responsesStream('', look) }, { sse: responsesStream('A pixel.') }]);
    await runAgent({
      executor: ws.executor,
      model: openaiResponsesModel({ model: 'm', apiKey: 'k', baseURL: `${server.url}/v1` }),
      prompt: 'look',
    });
    const output = server.requests[1].body.input.find(
      (i: { type?: string }) => i.type === 'function_call_output',
    ).output;
    expect(output).toContainEqual({
      type: 'input_image',
      image_url: `data:image/png;base64,${PIXEL_PNG}`,
      detail: 'auto',
    });
  });
});

describe('runAgent over OpenAI Responses', () => {
  it('streams, replays the output items and answers each function call with its output', async () => {
    server = await providerServer([{ sse: responsesStream('On it.', calls) }, { sse: responsesStream('Done.') }]);
    const events: AgentEvent[] = [];
    const model = openaiResponsesModel({ model: 'gpt-test', apiKey: 'sk-test', baseURL: `${server.url}/v1` });
    const run = await runAgent({
      executor: ws.executor,
      model,
      system: 'Be brief.',
      prompt: 'go',
      onEvent: (e) => events.push(e),
    });
    expect(run).toMatchObject({ stop: 'done', text: 'Done.', turns: 2, usage: { inputTokens: 60, outputTokens: 24 } });
    expect(texts(events)).toEqual(['On ', 'it.', 'Don', 'e.']);

    const [first, second] = server.requests;
    expect(first.url).toBe('/v1/responses');
    expect(first.body).toMatchObject({
      model: 'gpt-test',
      stream: true,
      instructions: 'Be brief.',
      input: [{ role: 'user', content: 'go' }],
    });
    expect(first.body.tools[0]).toMatchObject({
      type: 'function',
      name: expect.any(String),
      parameters: { type: 'object' },
      strict: false,
    });

    const input = second.body.input;
    expect(input.map((i: { type?: string; role?: string }) => i.type ?? i.role)).toEqual([
      'user',
      'message',
      'function_call',
      'function_call',
      'function_call',
      'function_call_output',
      'function_call_output',
      'function_call_output',
    ]);
    const outputs = input.filter((i: { type?: string }) => i.type === 'function_call_output');
    expect(outputs.map((o: { call_id: string }) => o.call_id)).toEqual(['call_1', 'call_2', 'call_3']);
    expect(outputs[0].output).toContain('alpha');
    expect(outputs[2].output).toContain(REJECTION);
  });
});
