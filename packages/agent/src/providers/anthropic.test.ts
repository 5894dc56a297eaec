import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { anthropicModel, runAgent, type AgentEvent } from '@toolbelt/agent';
import { anthropicStream } from '../__fixtures__/anthropic.js';
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

describe('runAgent over the Anthropic Messages API', () => {
  it('streams text, runs parallel reads, holds a write for approval and sends every result back', async () => {
    server = await providerServer([
      {
        named: true,
        sse: anthropicStream('Reading both.', [
          { id: 'toolu_1', name: 'read_file', input: { path: 'notes.txt' } },
          { id: 'toolu_2', name: 'read_file', input: { path: 'big.txt' } },
          { id: 'toolu_3', name: 'write_file', input: { path: 'out.md', content: 'x' } },
        ]),
      },
      { named: true, sse: anthropicStream('All done.') },
    ]);
    const events: AgentEvent[] = [];
    const bus: string[] = [];
    ws.executor.events.onType('agent.state', (e) => bus.push(e.state));
    const run = await runAgent({
      executor: ws.executor,
      model: anthropicModel({ model: 'claude-test', apiKey: 'test-key', baseURL: server.url }),
      system: 'You are terse.',
      prompt: 'read the notes',
      tools: ['read_file', 'write_file'],
      maxResultChars: 2000,
      onEvent: (e) => events.push(e),
    });
    expect(run).toMatchObject({
      stop: 'done',
      turns: 2,
      text: 'All done.',
      usage: { inputTokens: 50, outputTokens: 80 },
    });
    expect(events.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta)).toEqual([
      'Reading',
      ' both.',
      'All d',
      'one.',
    ]);
    expect(events.filter((e) => e.type === 'agent.state').map((e) => (e as { state: string }).state)).toEqual([
      'thinking',
      'tool_execution',
      'thinking',
      'idle',
    ]);

    const [first, second] = server.requests;
    expect(first.url).toBe('/v1/messages');
    expect(first.headers.authorization).toBe('Bearer test-key');
    expect(first.body).toMatchObject({
      model: 'claude-test',
      system: 'You are terse.',
      stream: true,
      messages: [{ role: 'user', content: 'read the notes' }],
    });
    expect(first.body.tools.map((t: { name: string }) => t.name)).toEqual(['read_file', 'write_file']);
    expect(first.body.tools[0].input_schema).toMatchObject({ type: 'object' });

    // The assistant turn is replayed as sent, then one user turn with every tool result.
    expect(second.body.messages[1]).toMatchObject({
      role: 'assistant',
      content: [{ type: 'text', text: 'Reading both.' }, { type: 'tool_use', id: 'toolu_1' }, {}, {}],
    });
    const results = second.body.messages[2].content;
    expect(results.map((r: { tool_use_id: string }) => r.tool_use_id)).toEqual(['toolu_1', 'toolu_2', 'toolu_3']);
    expect(results[0]).toMatchObject({
      is_error: false,
      content: [{ type: 'text', text: expect.stringContaining('alpha') }],
    });
    expect(results[1].content[0].text.length).toBeLessThan(2200);
    expect(results[1].content[0].text).toContain('characters omitted');
    expect(results[2]).toMatchObject({
      is_error: true,
      content: [{ type: 'text', text: expect.stringContaining(REJECTION) }],
    });
    expect(ws.asked.map((r) => r.tool)).toEqual(['write_file']);
    expect(existsSync(join(ws.dir, 'out.md'))).toBe(false);
  });

  it('sends an image a tool returns as an image block of the tool result', async () => {
    server = await providerServer([
      { named: true, sse: anthropicStream('', [{ id: 'toolu_1', name: 'read_file', input: { path: 'pixel.png' } }]) },
      { named: true, sse: anthropicStream('A pixel.') },
    ]);
    await runAgent({
      executor: ws.executor,
      model: anthropicModel({ model: 'm', apiKey: 'k', baseURL: server.url }),
      prompt: 'look',
    });
    const [result] = server.requests[1].body.messages[2].content;
    expect(result.content).toContainEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: PIXEL_PNG },
    });
  });

  it('stops at the turn limit with the tool results in the conversation, ready to continue', async () => {
    const call = (id: string) => ({
      named: true,
      sse: anthropicStream('', [{ id, name: 'read_file', input: { path: 'notes.txt' } }]),
    });
    server = await providerServer([call('toolu_1'), call('toolu_2')]);
    const run = await runAgent({
      executor: ws.executor,
      model: anthropicModel({ model: 'm', apiKey: 'k', baseURL: server.url }),
      prompt: 'loop',
      maxTurns: 2,
    });
    expect(run).toMatchObject({ stop: 'max_turns', turns: 2 });
    expect(run.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(server.requests).toHaveLength(2);
  });

  it('stops when the signal aborts: no model turn after it', async () => {
    server = await providerServer([
      { named: true, sse: anthropicStream('', [{ id: 'toolu_1', name: 'read_file', input: { path: 'notes.txt' } }]) },
    ]);
    const stop = new AbortController();
    const run = await runAgent({
      executor: ws.executor,
      model: anthropicModel({ model: 'm', apiKey: 'k', baseURL: server.url }),
      prompt: 'go',
      signal: stop.signal,
      onEvent: (e) => {
        if (e.type === 'tool.result') stop.abort();
      },
    });
    expect(run).toMatchObject({ stop: 'aborted', turns: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it('an abort while the answer streams ends the run as aborted, not as an error', async () => {
    server = await providerServer([{ named: true, sse: anthropicStream('a long answer that is cut short') }]);
    const stop = new AbortController();
    const run = await runAgent({
      executor: ws.executor,
      model: anthropicModel({ model: 'm', apiKey: 'k', baseURL: server.url }),
      prompt: 'go',
      signal: stop.signal,
      onEvent: (e) => {
        if (e.type === 'text') stop.abort();
      },
    });
    expect(run).toMatchObject({ stop: 'aborted', turns: 1 });
    expect(run.messages.map((m) => m.role)).toEqual(['user']);
  });

  it("a provider's error reaches the caller with the API's message", async () => {
    server = await providerServer([
      { status: 401, json: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } },
    ]);
    const model = anthropicModel({ model: 'm', apiKey: 'bad', baseURL: server.url });
    await expect(runAgent({ executor: ws.executor, model, prompt: 'hi' })).rejects.toThrow(/invalid x-api-key/);
  });
});
