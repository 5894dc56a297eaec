// A tool's question to a person through the gateway: an upstream MCP server (a real process, the
// official SDK) elicits during a call an agent made over HTTP; the question waits on the call
// (awaiting_input, an input.requested event) and a person's answer over HTTP reaches the server.
import { GatewayError, type GatewayClient } from '@toolbelt/client';
import type { ToolResult } from '@toolbelt/core';
import { McpManager } from '@toolbelt/mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { fixture } from '../../../mcp/src/__fixtures__/servers.js';
import { startGateway, until, type Harness } from '../__fixtures__/harness.js';

let h: Harness | undefined;
let manager: McpManager | undefined;
afterEach(async () => {
  await manager?.close();
  await h?.cleanup();
  h = manager = undefined;
});

const PERSON = 'person-token-0123456789abcdef';
const AGENT = 'agent-token-0123456789abcdef';

async function gatewayWithUpstream(callTimeoutMs?: number): Promise<Harness> {
  h = await startGateway({
    mode: 'yolo',
    config: {
      gateway: {
        tokens: [
          { name: 'ada', token: PERSON, roles: ['approve', 'events'] },
          { name: 'coder', token: AGENT, roles: ['call'] },
        ],
      },
    },
  });
  manager = new McpManager({
    servers: { fx: fixture() },
    registry: h.registry,
    ...(callTimeoutMs ? { callTimeoutMs } : {}),
  });
  await manager.start();
  return h;
}

/** Starts fx__ask_user and resolves once the call waits for a person's answer. */
async function asked(
  agent: GatewayClient,
  person: GatewayClient,
  callId: string,
): Promise<{ result: Promise<ToolResult> }> {
  const result = agent.call('run-1', 'fx__ask_user', {}, { callId });
  await until(
    () => person.getCall(callId).catch(() => undefined),
    (c) => c?.status === 'awaiting_input',
    `${callId} to wait for an answer`,
  );
  return { result };
}

const answerOf = (r: ToolResult) => JSON.parse((r.content[0] as { text: string }).text) as unknown;

async function refusal(p: Promise<unknown>): Promise<GatewayError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(GatewayError);
  return e as GatewayError;
}

describe("a tool's question to a person, over HTTP", () => {
  it('keeps the question on the call; the answer, defaults filled in, reaches the upstream server', async () => {
    const gw = await gatewayWithUpstream();
    const agent = gw.client({ token: AGENT, agentId: 'coder' });
    const person = gw.client({ token: PERSON });
    const { result } = await asked(agent, person, 'q-1');

    const call = await person.getCall('q-1');
    expect(call.question).toMatchObject({
      tool: 'fx__ask_user',
      source: 'MCP server "fx"',
      message: 'Which name?',
      runId: 'run-1',
      agentId: 'coder',
    });
    expect(call.question?.schema.required).toEqual(['name']);
    const waiting = await person.calls({ status: 'awaiting_input' });
    expect(waiting.calls.map((c) => c.callId)).toEqual(['q-1']);
    const requested = await gw.store.eventsAfter(0, { types: ['input.requested'] }, 10);
    expect(requested.map((e) => e.event)).toMatchObject([
      { type: 'input.requested', callId: 'q-1', agentId: 'coder', question: { message: 'Which name?' } },
    ]);

    const reply = await person.answerQuestion('q-1', { action: 'accept', content: { name: 'Grace' } });
    expect(reply).toEqual({
      callId: 'q-1',
      status: 'running',
      answer: { action: 'accept', content: { name: 'Grace', count: 3, color: 'green' }, by: 'ada' },
    });
    const r = await result;
    expect(r.status).toBe('success');
    expect(answerOf(r)).toEqual({ action: 'accept', content: { name: 'Grace', count: 3, color: 'green' } });
    expect(await person.getCall('q-1')).toMatchObject({ status: 'success', answer: { action: 'accept', by: 'ada' } });
    const answered = await gw.store.eventsAfter(0, { types: ['input.answered'] }, 10);
    expect(answered.map((e) => e.event)).toMatchObject([
      { type: 'input.answered', callId: 'q-1', action: 'accept', by: 'ada' },
    ]);
  });

  it('passes a decline or a cancel on to the upstream server', async () => {
    const gw = await gatewayWithUpstream();
    const agent = gw.client({ token: AGENT, agentId: 'coder' });
    const person = gw.client({ token: PERSON });
    const { result: declined } = await asked(agent, person, 'q-d');
    await person.answerQuestion('q-d', { action: 'decline' });
    expect(answerOf(await declined)).toEqual({ action: 'decline' });
    const { result: cancelled } = await asked(agent, person, 'q-c');
    await person.answerQuestion('q-c', { action: 'cancel' });
    expect(answerOf(await cancelled)).toEqual({ action: 'cancel' });
  });

  it('refuses an answer that does not fit the form, says why, and keeps the question open', async () => {
    const gw = await gatewayWithUpstream();
    const agent = gw.client({ token: AGENT, agentId: 'coder' });
    const person = gw.client({ token: PERSON });
    const { result } = await asked(agent, person, 'q-bad');

    const wrongType = await refusal(
      person.answerQuestion('q-bad', { action: 'accept', content: { name: 'Grace', count: 'three' } }),
    );
    expect([wrongType.status, wrongType.code]).toEqual([400, 'INVALID_PARAMS']);
    expect(wrongType.message).toContain('"count" must be a whole number');
    const notAChoice = await refusal(person.answerQuestion('q-bad', { action: 'accept', content: { color: 'blue' } }));
    expect(notAChoice.message).toContain('"color" must be one of red, green');
    const unknown = await refusal(person.answerQuestion('q-bad', { action: 'accept', content: { nmae: 'Grace' } }));
    expect(unknown.message).toContain('"nmae" is not a field of this form (fields: name, count, color, note)');
    const badBody = await refusal(person.answerQuestion('q-bad', { action: 'maybe' } as never));
    expect(badBody.status).toBe(400);
    const notAllowed = await refusal(agent.answerQuestion('q-bad', { action: 'decline' }));
    expect(notAllowed.status).toBe(403);

    expect((await person.getCall('q-bad')).status).toBe('awaiting_input');
    await person.answerQuestion('q-bad', { action: 'accept', content: {} });
    expect(answerOf(await result)).toEqual({ action: 'accept', content: { name: 'Ada', count: 3, color: 'green' } });

    const late = await refusal(person.answerQuestion('q-bad', { action: 'decline' }));
    expect([late.status, late.message]).toEqual([
      409,
      'call q-bad is not waiting for an answer; its status is "success"',
    ]);
    expect((await refusal(person.answerQuestion('no-such-call', { action: 'decline' }))).status).toBe(404);
  });

  it('a question nobody answers ends with the call when it times out, and leaves the waiting list', async () => {
    const gw = await gatewayWithUpstream(3000);
    const agent = gw.client({ token: AGENT, agentId: 'coder' });
    const person = gw.client({ token: PERSON });
    const { result } = await asked(agent, person, 'q-late');
    const r = await result;
    expect(r.status).toBe('error');
    expect(r.error?.code).toBe('TIMEOUT');
    expect((await person.getCall('q-late')).status).toBe('error');
    expect((await person.calls({ status: 'awaiting_input' })).calls).toEqual([]);
    const late = await refusal(person.answerQuestion('q-late', { action: 'decline' }));
    expect(late.status).toBe(409);
  });

  it('a program answers with the client SDK: questions asked before it started and after, once each', async () => {
    const gw = await gatewayWithUpstream();
    const agent = gw.client({ token: AGENT, agentId: 'coder' });
    const person = gw.client({ token: PERSON });
    const { result: early } = await asked(agent, person, 'q-early');
    const seen: string[] = [];
    const worker = person.answerQuestionsWith((q) => {
      seen.push(q.callId);
      return q.callId === 'q-human' ? undefined : { action: 'accept', content: { name: `bot for ${q.callId}` } };
    });
    await worker.ready;
    expect(answerOf(await early)).toMatchObject({ action: 'accept', content: { name: 'bot for q-early' } });
    const late = agent.call('run-1', 'fx__ask_user', {}, { callId: 'q-late' });
    expect(answerOf(await late)).toMatchObject({ action: 'accept', content: { name: 'bot for q-late' } });
    // Left to a person: the worker passes, the question stays open.
    const { result: human } = await asked(agent, person, 'q-human');
    await until(
      () => seen,
      (s) => s.includes('q-human'),
      'the worker to see q-human',
    );
    expect((await person.getCall('q-human')).status).toBe('awaiting_input');
    await person.answerQuestion('q-human', { action: 'decline' });
    expect(answerOf(await human)).toEqual({ action: 'decline' });
    await worker.stop();
    expect(seen).toEqual(['q-early', 'q-late', 'q-human']);
  });
});
