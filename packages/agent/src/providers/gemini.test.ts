import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { geminiModel, runAgent, type AgentEvent } from '@toolbelt/agent';
import { geminiStream } from '../__fixtures__/gemini.js';
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

describe('runAgent over the Gemini API', () => {
  it('streams, runs parallel function calls and answers each by name, replaying the thought signature', async () => {
    const calls = [
      { name: 'read_file', args: { path: 'notes.txt' } },
      { name: 'read_file', args: { path: 'big.txt' } },
      { name: 'write_file', args: { path: 'out.md', content: 'x' } },
    ];
    server = await providerServer([{ sse: geminiStream('On it.', calls) }, { sse: geminiStream('Done.') }]);
    const events: AgentEvent[] = [];
    const model = geminiModel({ model: 'gemini-test', apiKey: 'g-key', baseUrl: server.url });
    const run = await runAgent({
      executor: ws.executor,
      model,
      system: 'Be brief.',
      prompt: 'go',
      maxResultChars: 1000,
      onEvent: (e) => events.push(e),
    });
    expect(run).toMatchObject({ stop: 'done', text: 'Done.', turns: 2, usage: { inputTokens: 60, outputTokens: 24 } });
    expect(events.flatMap((e) => (e.type === 'text' ? [e.delta] : []))).toEqual(['On ', 'it.', 'Don', 'e.']);

    const [first, second] = server.requests;
    expect(first.url).toBe('/v1beta/models/gemini-test:streamGenerateContent?alt=sse');
    expect(first.headers['x-goog-api-key']).toBe('g-key');
    expect(first.body).toMatchObject({
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      contents: [{ role: 'user', parts: [{ text: 'go' }] }],
    });
    expect(first.body.tools[0].functionDeclarations[0]).toMatchObject({
      name: expect.any(String),
      parametersJsonSchema: { type: 'object' },
    });

    const [, modelTurn, answers] = second.body.contents;
    expect(modelTurn.role).toBe('model');
    expect(modelTurn.parts.find((p: { functionCall?: unknown }) => p.functionCall)).toMatchObject({
      thoughtSignature: 'c2lnbmF0dXJl',
    });
    const responses = answers.parts.map(
      (p: { functionResponse: { name: string; id?: string; response: Record<string, string> } }) => p.functionResponse,
    );
    expect(responses.map((r: { name: string }) => r.name)).toEqual(['read_file', 'read_file', 'write_file']);
    expect(responses.every((r: { id?: string }) => r.id === undefined)).toBe(true);
    expect(responses[0].response.output).toContain('alpha');
    expect(responses[1].response.output).toContain('characters omitted');
    expect(responses[2].response.error).toContain(REJECTION);
  });

  it('sends an image a tool returns in the function response parts', async () => {
    server = await providerServer([
      { sse: geminiStream('', [{ name: 'read_file', args: { path: 'pixel.png' } }]) },
      { sse: geminiStream('A pixel.') },
    ]);
    await runAgent({
      executor: ws.executor,
      model: geminiModel({ model: 'gemini-test', apiKey: 'k', baseUrl: server.url }),
      prompt: 'look',
    });
    const response = server.requests[1].body.contents[2].parts[0].functionResponse;
    expect(response.parts).toEqual([{ inlineData: { mimeType: 'image/png', data: PIXEL_PNG } }]);
  });

  it('answers a call that came with an id by that id', async () => {
    server = await providerServer([
      { sse: geminiStream('', [{ id: 'fc-7', name: 'read_file', args: { path: 'notes.txt' } }]) },
      { sse: geminiStream('ok') },
    ]);
    await runAgent({
      executor: ws.executor,
      model: geminiModel({ model: 'gemini-test', apiKey: 'k', baseUrl: server.url }),
      prompt: 'go',
    });
    expect(server.requests[1].body.contents[2].parts[0].functionResponse).toMatchObject({
      id: 'fc-7',
      name: 'read_file',
    });
  });
});

describe('an unreachable Gemini server', () => {
  it('names the URL and the cause, not a bare "fetch failed"', async () => {
    // A port that was just listening and is now closed: connection refused.
    server = await providerServer([]);
    const url = server.url;
    await server.close();
    const model = geminiModel({ model: 'gemini-test', apiKey: 'k', baseUrl: url });
    const err = await model.turn({ messages: [{ role: 'user', content: 'hi' }], tools: [] }).catch((e: Error) => e);
    expect((err as Error).message).toMatch(
      new RegExp(
        `^cannot reach the model server at ${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: connection refused \\(ECONNREFUSED\\)`,
      ),
    );
  });
});
