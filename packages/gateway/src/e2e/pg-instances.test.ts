// Two gateways on one PostgreSQL database, in process: a call waiting for a person's approval on
// one is approved through the other, and a rejection given on the other reaches the model.
import { Policy, ToolRegistry } from '@toolbelt/core';
import { afterAll, describe, expect, it } from 'vitest';
import { dropSchemas, freshSchema, PG_URL, pgAvailable } from '../__fixtures__/pg.js';
import { noteTool } from '../__fixtures__/harness.js';
import { policyWithStore } from '../decisions.js';
import { createGateway } from '../gateway.js';
import { openPgStore } from '../store/pg.js';

afterAll(dropSchemas);

async function instance(schema: string) {
  const store = await openPgStore(PG_URL, { schema });
  const registry = new ToolRegistry().registerAll([noteTool]);
  const gw = await createGateway({ registry, policy: await policyWithStore(new Policy({ mode: 'safe' }), store), store, env: {} });
  const { url } = await gw.listen({ port: 0 });
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };
  return { store, post, close: async () => (await gw.close(), await store.close()) };
}

/** Until the call awaits approval, as the other instance reads the database. */
async function awaitingApproval(status: () => Promise<string | undefined>): Promise<void> {
  for (let i = 0; i < 400 && (await status()) !== 'awaiting_approval'; i++) await new Promise((r) => setTimeout(r, 25));
}

describe.skipIf(!pgAvailable)('two gateways on one PostgreSQL database', () => {
  it('approves on one instance a call waiting on the other, and passes a rejection back', async () => {
    const schema = freshSchema('inst');
    const [a, b] = await Promise.all([instance(schema), instance(schema)]);
    const status = (id: string) => async () => (await b.store.getCall(id))?.status;

    const approved = a.post('/api/runs/r1/tool-calls', { agentId: 'ag', name: 'write_note', input: { note: 'one' }, callId: 'ap-1' });
    await awaitingApproval(status('ap-1'));
    expect((await b.post('/api/tool-calls/ap-1/approve', {})).body).toMatchObject({ status: 'running', decision: { outcome: 'approve' } });
    expect(await approved).toMatchObject({ status: 200, body: { status: 'success', approvedBy: 'user', content: [{ text: 'wrote one' }] } });

    const rejected = a.post('/api/runs/r1/tool-calls', { agentId: 'ag', name: 'write_note', input: { note: 'two' }, callId: 'ap-2' });
    await awaitingApproval(status('ap-2'));
    await b.post('/api/tool-calls/ap-2/reject', { message: 'not this one' });
    expect(await rejected).toMatchObject({ status: 200, body: { status: 'rejected', rejection: { userMessage: 'not this one' } } });

    await Promise.all([a.close(), b.close()]);
  });
});
