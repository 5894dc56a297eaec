// Two gateways on one PostgreSQL database, in process: a call waiting for a person's approval on
// one is approved through the other, and a rejection given on the other reaches the model; a tool's
// question asked on one is answered through the other.
import { defineTool, Policy, ToolRegistry } from '@toolbelt/core';
import { afterAll, describe, expect, it } from 'vitest';
import { dropSchemas, freshSchema, PG_URL, pgAvailable } from '../__fixtures__/pg.js';
import { noteTool } from '../__fixtures__/harness.js';
import { policyWithStore } from '../decisions.js';
import { createGateway } from '../gateway.js';
import { openPgStore } from '../store/pg/index.js';

afterAll(dropSchemas, 60_000);

const askTool = defineTool({
  name: 'ask_name',
  description: 'Asks the person for a name and says it back.',
  input: { type: 'object', properties: {} },
  effect: 'read',
  execute: async (_input: Record<string, never>, ctx) => {
    const answer = await ctx.elicit({
      source: 'ask_name',
      message: 'Which name?',
      schema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    return answer.action === 'accept' ? `hello ${String(answer.content.name)}` : answer.action;
  },
});

async function instance(schema: string) {
  const store = await openPgStore(PG_URL, { schema });
  const registry = new ToolRegistry().registerAll([noteTool, askTool]);
  const gw = await createGateway({
    registry,
    policy: await policyWithStore(new Policy({ mode: 'safe' }), store),
    store,
    env: {},
  });
  const { url } = await gw.listen({ port: 0 });
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  return { store, post, close: async () => (await gw.close(), await store.close()) };
}

/** Until the call has `wanted` status (it waits for a person), as the other instance reads the database. */
async function awaitingApproval(
  status: () => Promise<string | undefined>,
  wanted = 'awaiting_approval',
): Promise<void> {
  for (let i = 0; i < 400 && (await status()) !== wanted; i++) await new Promise((r) => setTimeout(r, 25));
}

describe.skipIf(!pgAvailable)('two gateways on one PostgreSQL database', () => {
  it('approves on one instance a call waiting on the other, and passes a rejection back', async () => {
    const schema = freshSchema('inst');
    const [a, b] = await Promise.all([instance(schema), instance(schema)]);
    const status = (id: string) => async () => (await b.store.getCall(id))?.status;

    const approved = a.post('/api/runs/r1/tool-calls', {
      agentId: 'ag',
      name: 'write_note',
      input: { note: 'one' },
      callId: 'ap-1',
    });
    await awaitingApproval(status('ap-1'));
    expect((await b.post('/api/tool-calls/ap-1/approve', {})).body).toMatchObject({
      status: 'running',
      decision: { outcome: 'approve' },
    });
    expect(await approved).toMatchObject({
      status: 200,
      body: { status: 'success', approvedBy: 'user', content: [{ text: 'wrote one' }] },
    });

    const rejected = a.post('/api/runs/r1/tool-calls', {
      agentId: 'ag',
      name: 'write_note',
      input: { note: 'two' },
      callId: 'ap-2',
    });
    await awaitingApproval(status('ap-2'));
    await b.post('/api/tool-calls/ap-2/reject', { message: 'not this one' });
    expect(await rejected).toMatchObject({
      status: 200,
      body: { status: 'rejected', rejection: { userMessage: 'not this one' } },
    });

    const asked = a.post('/api/runs/r1/tool-calls', { agentId: 'ag', name: 'ask_name', input: {}, callId: 'q-1' });
    await awaitingApproval(status('q-1'), 'awaiting_input');
    await b.post('/api/tool-calls/q-1/answer', { action: 'accept', content: { name: 'Grace' } });
    expect(await asked).toMatchObject({ status: 200, body: { status: 'success', content: [{ text: 'hello Grace' }] } });

    await Promise.all([a.close(), b.close()]);
  });
});
