// runGatewayAgent in process against a real gateway (HTTP, SQLite) and a local Chat Completions
// server: the conversation of earlier cycles (consciousness) and its limit, arguments that are not
// JSON, and which of the gateway's tools the model is shown.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runGatewayAgent } from '@toolbelt/agent';
import { openaiChatModel } from '../providers/openai-chat.js';
import { chatStream } from '../__fixtures__/openai.js';
import { providerServer, type ProviderServer } from '../__fixtures__/server.js';
import { startGateway, type Harness } from '../../../gateway/src/__fixtures__/harness.js';

let h: Harness;
let server: ProviderServer;
beforeEach(async () => {
  h = await startGateway();
  const admin = h.client();
  await admin.createSpace('Room', 'room');
  for (const [id, kind] of [
    ['ada', 'person'],
    ['bot', 'agent'],
  ] as const)
    await admin.addMember('room', id, kind);
});
afterEach(async () => {
  await server?.close();
  await h.cleanup();
});

const model = () => openaiChatModel({ model: 'gpt-test', apiKey: 'k', baseURL: `${server.url}/v1` });
const client = () => h.client({ agentId: 'bot' });
const userTurns = (i: number) =>
  (server.requests[i].body.messages as { role: string; content: string }[])
    .filter((m) => m.role === 'user')
    .map((m) => m.content);

/** Two cycles: each waits for a message Ada posts once the previous cycle's model turn is done. */
async function twoCycles(rememberCycles?: number): Promise<void> {
  server = await providerServer([{ sse: chatStream('Noted the first.') }, { sse: chatStream('Noted the second.') }]);
  await h.client().postMessage('room', 'ada', 'first');
  let posted: Promise<unknown> = Promise.resolve();
  let done = 0;
  const agent = runGatewayAgent({
    client: client(),
    agentId: 'bot',
    model: model(),
    cycles: 2,
    waitMs: 5000,
    ...(rememberCycles !== undefined ? { rememberCycles } : {}),
    onCycle: () => {
      if (++done === 1) posted = h.client().postMessage('room', 'ada', 'second');
    },
  });
  const runs = await agent;
  await posted;
  expect(runs.map((r) => r.inbox)).toEqual([1, 1]);
}

describe('runGatewayAgent', () => {
  it("shows the model the earlier cycles' conversation, then the new inbox", async () => {
    await twoCycles();
    const turns = userTurns(1);
    expect(turns).toHaveLength(2);
    expect(turns[0]).toMatch(/ada \(person\): first$/);
    expect(turns[1]).toMatch(/ada \(person\): second$/);
    expect(
      server.requests[1].body.messages.some(
        (m: { role: string; content: string }) => m.role === 'assistant' && m.content === 'Noted the first.',
      ),
    ).toBe(true);
  });

  it('with rememberCycles 0 each cycle starts from its inbox alone (control for the above)', async () => {
    await twoCycles(0);
    expect(userTurns(1)).toEqual([expect.stringMatching(/ada \(person\): second$/)]);
  });

  it('arguments that are not JSON come back to the model as INVALID_PARAMS, and the cycle goes on', async () => {
    const broken = chatStream('', [{ id: 'call_1', name: 'send_message', input: {}, raw: '{text: hi' }]);
    server = await providerServer([{ sse: broken }, { sse: chatStream('Sorry.') }]);
    await h.client().postMessage('room', 'ada', 'hello');
    const [run] = await runGatewayAgent({ client: client(), agentId: 'bot', model: model(), cycles: 1, waitMs: 5000 });
    expect(run.run).toMatchObject({ stop: 'done', turns: 2, text: 'Sorry.' });
    const tool = server.requests[1].body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(tool.content).toMatch(/^Error \(INVALID_PARAMS\): /);
  });

  it("shows the named tools and the spaces' own; an unknown name is refused before any model call", async () => {
    server = await providerServer([{ sse: chatStream('ok') }]);
    await h.client().postMessage('room', 'ada', 'hello');
    await runGatewayAgent({
      client: client(),
      agentId: 'bot',
      model: model(),
      cycles: 1,
      waitMs: 5000,
      tools: ['echo'],
    });
    const names = server.requests[0].body.tools.map((t: { function: { name: string } }) => t.function.name);
    expect(names).toContain('echo');
    expect(names).toContain('enter_space');
    expect(names).not.toContain('write_note');
    await h.client().postMessage('room', 'ada', 'again');
    const refused = runGatewayAgent({
      client: client(),
      agentId: 'bot',
      model: model(),
      cycles: 1,
      waitMs: 5000,
      tools: ['nope'],
    });
    await expect(refused).rejects.toThrow('the gateway has no tool "nope"; GET /api/tools lists them');
    expect(server.requests).toHaveLength(1);
  });
});
