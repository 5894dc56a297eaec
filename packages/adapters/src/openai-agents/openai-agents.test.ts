import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, OpenAIResponsesModel, run, setTracingDisabled } from '@openai/agents';
import OpenAI from 'openai';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openaiAgentsTools } from '@toolbelt/adapters/openai-agents';
import { responseJson } from '../../../agent/src/__fixtures__/openai.js';
import { providerServer, type ProviderServer } from '../../../agent/src/__fixtures__/server.js';
import { REJECTION, testWorkspace, type TestWorkspace } from '../../../agent/src/__fixtures__/workspace.js';

let ws: TestWorkspace;
let server: ProviderServer;
beforeAll(() => setTracingDisabled(true));
beforeEach(() => {
  ws = testWorkspace();
});
afterEach(async () => {
  await server?.close();
  await ws.close();
});

/** An agent on the Responses API, its client pointed at the local server. */
function agent(tools: ReturnType<typeof openaiAgentsTools>) {
  const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 });
  return new Agent({
    name: 'tester',
    instructions: 'Be brief.',
    tools,
    model: new OpenAIResponsesModel(client, 'gpt-test'),
  });
}

/** The function_call_output items the model was sent in a request. */
function outputsSent(i: number): { call_id: string; output: unknown }[] {
  return server.requests[i].body.input.filter((item: { type?: string }) => item.type === 'function_call_output');
}

describe('openaiAgentsTools', () => {
  it('runs a read through the executor and sends its text to the model', async () => {
    server = await providerServer([
      { json: responseJson('', [{ id: 'call_1', name: 'read_file', input: { path: 'notes.txt' } }]) },
      { json: responseJson('done') },
    ]);
    const result = await run(agent(openaiAgentsTools(ws.executor)), 'read the notes');
    expect(result.finalOutput).toBe('done');
    expect(server.requests[0].body.tools.map((t: { name: string }) => t.name)).toContain('read_file');
    expect(JSON.stringify(outputsSent(1)[0].output)).toContain('alpha');
    expect(ws.log.entries.map((e) => [e.tool, e.status])).toEqual([['read_file', 'success']]);
  });

  it('input the schema refuses reaches the executor, whose INVALID_PARAMS the model reads', async () => {
    server = await providerServer([
      { json: responseJson('', [{ id: 'call_b', name: 'read_file', input: { pth: 'notes.txt' } }]) },
      { json: responseJson('ok') },
    ]);
    await run(agent(openaiAgentsTools(ws.executor)), 'read');
    expect(JSON.stringify(outputsSent(1)[0].output)).toMatch(/Error \(INVALID_PARAMS\): .*pth/);
    expect(ws.log.entries.map((e) => [e.tool, e.status])).toEqual([['read_file', 'error']]);
  });

  it("holds a write for the SDK's approval; the person's rejection message reaches the model", async () => {
    server = await providerServer([
      { json: responseJson('', [{ id: 'call_w', name: 'write_file', input: { path: 'out.md', content: 'x' } }]) },
      { json: responseJson('ok') },
    ]);
    const a = agent(openaiAgentsTools(ws.executor));
    const first = await run(a, 'write out.md');
    expect(first.interruptions.map((i) => i.name)).toEqual(['write_file']);
    expect(existsSync(join(ws.dir, 'out.md'))).toBe(false);
    first.state.reject(first.interruptions[0], { message: REJECTION });
    const second = await run(a, first.state);
    expect(second.finalOutput).toBe('ok');
    expect(JSON.stringify(outputsSent(1)[0])).toContain(REJECTION);
    expect(existsSync(join(ws.dir, 'out.md'))).toBe(false);
    expect(ws.asked).toEqual([]);
  });

  it('runs a write the person approved in the SDK, logged as approved by the user', async () => {
    server = await providerServer([
      { json: responseJson('', [{ id: 'call_w', name: 'write_file', input: { path: 'out.md', content: 'hi' } }]) },
      { json: responseJson('ok') },
    ]);
    const a = agent(openaiAgentsTools(ws.executor));
    const first = await run(a, 'write out.md');
    first.state.approve(first.interruptions[0]);
    await run(a, first.state);
    expect(existsSync(join(ws.dir, 'out.md'))).toBe(true);
    expect(ws.log.entries.at(-1)).toMatchObject({ tool: 'write_file', status: 'success', approvedBy: 'user' });
  });

  it("with approval 'toolbelt', the executor's approver rejects the write and the model reads why", async () => {
    server = await providerServer([
      { json: responseJson('', [{ id: 'call_w', name: 'write_file', input: { path: 'out.md', content: 'x' } }]) },
      { json: responseJson('ok') },
    ]);
    const result = await run(agent(openaiAgentsTools(ws.executor, { approval: 'toolbelt' })), 'write out.md');
    expect(result.finalOutput).toBe('ok');
    expect(ws.asked.map((r) => r.tool)).toEqual(['write_file']);
    expect(JSON.stringify(outputsSent(1)[0].output)).toContain(REJECTION);
  });
});
