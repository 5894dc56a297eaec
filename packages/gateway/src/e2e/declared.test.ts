// Declared tools' execution types end to end: real HTTP, the client SDK, a SQLite file.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DeclaredTool } from '../config.js';
import { GatewayError } from '@toolbelt/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, until, type Harness } from '../__fixtures__/harness.js';

const obj = (props: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties: props,
  required,
});

let upstream: Server;
let upstreamUrl: string;
const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];

function tools(): DeclaredTool[] {
  return [
    {
      name: 'displayChart',
      description: 'Shows a chart in the active space.',
      inputSchema: obj({ title: { type: 'string' } }, ['title']),
      executionType: 'internal',
    },
    {
      name: 'fetchWeather',
      description: 'Current weather for a city.',
      inputSchema: obj({ city: { type: 'string' }, days: { type: 'integer' } }, ['city']),
      executionType: 'gateway',
      execution: { url: `${upstreamUrl}/weather`, method: 'GET', headers: { 'x-api-key': 'k-123' } },
    },
    {
      name: 'createTicket',
      description: 'Opens a ticket.',
      inputSchema: obj({ title: { type: 'string' } }),
      executionType: 'gateway',
      effect: 'read',
      execution: { url: `${upstreamUrl}/tickets`, method: 'POST' },
    },
    {
      name: 'brokenService',
      description: 'Always fails upstream.',
      inputSchema: obj({}),
      executionType: 'gateway',
      execution: { url: `${upstreamUrl}/broken`, method: 'GET' },
    },
    {
      name: 'fetchExternalData',
      description: 'Looked up by an external server.',
      inputSchema: obj({ query: { type: 'string' } }, ['query']),
      // As the gateway specification declares it: no effect, so the operator's own, run in the default mode.
      executionType: 'external',
      isAsync: false,
      timeout: 5000,
      visible: false,
    },
    {
      name: 'slowLookup',
      description: 'An external lookup that may take long.',
      inputSchema: obj({ query: { type: 'string' } }),
      executionType: 'external',
      timeout: 150,
    },
    {
      name: 'confirmAction',
      description: 'Asks the user to confirm.',
      inputSchema: obj({ question: { type: 'string' } }, ['question']),
      executionType: 'space',
      isAsync: true,
    },
  ];
}

let h: Harness;
beforeAll(async () => {
  upstream = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      if (req.url!.startsWith('/broken'))
        return void res.writeHead(503, { 'content-type': 'text/plain' }).end('maintenance');
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ path: req.url, echoed: body ? JSON.parse(body) : null, tempC: 21 }));
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  h = await startGateway({
    config: { tools: tools() },
    inSpace: ['agent-a', 'agent-late', 'agent-hangup', 'agent-async', 'agent-refuse'],
  });
});
afterAll(async () => {
  await h.cleanup();
  await new Promise((r) => upstream.close(r));
});

describe('declared tools over the gateway', () => {
  it('lists declared tools with their execution type, async flag and visibility', async () => {
    const listed = await h.client().tools();
    const by = Object.fromEntries(listed.map((t) => [t.name, t]));
    expect(by.displayChart).toMatchObject({
      executionType: 'internal',
      visible: false,
      isAsync: false,
      effect: 'read',
    });
    expect(by.confirmAction).toMatchObject({ executionType: 'space', visible: true, isAsync: true });
    expect(by.fetchExternalData).toMatchObject({ executionType: 'external', visible: false, timeout: 5000 });
    expect(by.echo).toMatchObject({ visible: false, effect: 'read' });
    expect(by.echo.executionType).toBeUndefined();
  });

  it('internal: returns the arguments at once', async () => {
    const r = await h.client().call('run-1', 'displayChart', { title: 'Sales' });
    expect(r).toMatchObject({ status: 'success', structured: { success: true, args: { title: 'Sales' } } });
    expect((await h.client().getCall(r.callId)).status).toBe('success');
  });

  it('gateway: a GET carries the input as query parameters with the configured headers', async () => {
    const r = await h.client().call('run-1', 'fetchWeather', { city: 'Tokyo', days: 2 });
    expect(r.status).toBe('success');
    expect(r.structured).toMatchObject({ path: '/weather?city=Tokyo&days=2', tempC: 21 });
    const req = seen.find((s) => s.url.startsWith('/weather'))!;
    expect(req.method).toBe('GET');
    expect(req.headers['x-api-key']).toBe('k-123');
  });

  it('gateway: a POST sends the input as JSON and returns the JSON answer', async () => {
    const r = await h.client().call('run-1', 'createTicket', { title: 'Broken build' });
    expect(r).toMatchObject({
      status: 'success',
      structured: { echoed: { title: 'Broken build' } },
      metadata: { httpStatus: 200 },
    });
  });

  it('gateway: an upstream failure is an error result that says what the service answered', async () => {
    const r = await h.client().call('run-1', 'brokenService', {});
    expect(r.status).toBe('error');
    expect(r.error).toMatchObject({ code: 'EXECUTION_FAILED', recoverable: true });
    expect(r.error!.message).toContain('HTTP 503: maintenance');
  });

  it('external, sync: the agent gets the result inline once the executor submits it', async () => {
    const executor = h
      .client({ agentId: 'executor' })
      .onToolCall('fetchExternalData', async (input: { query: string }, call) => ({
        source: 'pm-api',
        query: input.query,
        run: call.runId,
      }));
    await executor.ready;
    try {
      const r = await h.client().call('run-2', 'fetchExternalData', { query: 'active projects' });
      expect(r).toMatchObject({
        status: 'success',
        structured: { source: 'pm-api', query: 'active projects', run: 'run-2' },
      });
      const call = await h.client().getCall(r.callId);
      expect(call).toMatchObject({
        status: 'resolved',
        submitted: { result: { source: 'pm-api' } },
        result: { status: 'success' },
      });
      expect(await h.client().inbox('agent-a')).toEqual([]);
    } finally {
      await executor.stop();
    }
  });

  it('external, sync: an error submitted by the executor reaches the agent as an error result', async () => {
    const executor = h.client().onToolCall('fetchExternalData', () => {
      throw new Error('the PM API is down');
    });
    await executor.ready;
    try {
      const r = await h.client().call('run-3', 'fetchExternalData', { query: 'x' });
      expect(r.status).toBe('error');
      expect(r.error).toMatchObject({
        code: 'EXECUTION_FAILED',
        message: 'fetchExternalData failed: the PM API is down',
      });
    } finally {
      await executor.stop();
    }
  });

  it('external, sync: after the timeout the agent gets an error and the late result reaches the inbox exactly once', async () => {
    const agent = h.client({ agentId: 'agent-late' });
    const r = await agent.call('run-4', 'slowLookup', { query: 'q' });
    expect(r.status).toBe('error');
    expect(r.error!.code).toBe('TIMEOUT');
    expect(r.error!.message).toMatch(
      /^Tool timed out after 150ms: slowLookup got no result in time\. .*goes to your inbox/,
    );
    expect((await agent.getCall(r.callId)).status).toBe('pending');

    const answer = await agent.submitResult('run-4', r.callId, { found: 3 });
    expect(answer).toMatchObject({ status: 'resolved', delivered: 'inbox' });
    const again = await agent.submitResult('run-4', r.callId, { found: 4 }).catch((e) => e);
    expect(again).toBeInstanceOf(GatewayError);
    expect(again.status).toBe(409);
    const inbox = await agent.inbox('agent-late');
    expect(inbox).toHaveLength(1);
    expect(inbox[0]).toMatchObject({ callId: r.callId, tool: 'slowLookup', runId: 'run-4', result: { found: 3 } });
  });

  it('external, sync: an agent that hangs up while waiting leaves the call open for its inbox', async () => {
    const agent = h.client({ agentId: 'agent-hangup' });
    const controller = new AbortController();
    const pending = agent
      .call('run-5', 'fetchExternalData', { query: 'q' }, { callId: 'hangup-1', signal: controller.signal })
      .catch((e) => e);
    await until(
      () => agent.getCall('hangup-1').catch(() => undefined),
      (c) => c?.status === 'waiting',
      'the call to wait',
    );
    controller.abort();
    expect((await pending).name).toBe('AbortError');
    await until(
      () => agent.getCall('hangup-1'),
      (c) => c.status === 'pending',
      'the call to be released to the inbox',
    );
    await agent.submitResult('run-5', 'hangup-1', 'done later');
    expect((await agent.inbox('agent-hangup')).map((m) => m.kind === 'tool_result' && m.result)).toEqual([
      'done later',
    ]);
  });

  it('async (space): answers pending at once; the result arrives in the inbox, which is acknowledged', async () => {
    const agent = h.client({ agentId: 'agent-async' });
    const r = await agent.call('run-6', 'confirmAction', { question: 'Book the hotel?' });
    expect(r.status).toBe('pending');
    expect(r.structured).toEqual({ status: 'pending', pendingToolCallId: r.callId });
    expect(await agent.getCall(r.callId)).toMatchObject({ status: 'pending', visible: true });
    expect(await agent.inbox('agent-async')).toEqual([]);

    await agent.submitResult('run-6', r.callId, { confirmed: true });
    const [msg] = await agent.inbox('agent-async');
    expect(msg).toMatchObject({ callId: r.callId, result: { confirmed: true } });
    expect(await agent.ack('agent-async', [msg.id])).toBe(1);
    expect(await agent.inbox('agent-async')).toEqual([]);
    expect(await agent.inbox('agent-async', { includeAcked: true })).toHaveLength(1);
  });

  it('refuses results for unknown calls, other runs and finished calls, and changes nothing', async () => {
    const agent = h.client({ agentId: 'agent-refuse' });
    const open = await agent.call('run-7', 'confirmAction', { question: 'q' });
    const done = await agent.call('run-7', 'echo', { text: 'hi' });
    const refusal = (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (e: GatewayError) => [e.status, e.code],
      );
    expect(await refusal(agent.submitResult('run-7', 'no-such-call', 1))).toEqual([404, 'NOT_FOUND']);
    expect(await refusal(agent.submitResult('other-run', open.callId, 1))).toEqual([404, 'NOT_FOUND']);
    expect(await refusal(agent.submitResult('run-7', done.callId, 1))).toEqual([409, 'CONFLICT']);
    expect((await agent.getCall(open.callId)).status).toBe('pending');
    expect((await agent.getCall(done.callId)).status).toBe('success');
    expect(await agent.inbox('agent-refuse')).toEqual([]);
  });
});

describe('expiry of open calls', () => {
  it('expires an unanswered async call, tells the agent in its inbox, and refuses a later result with 410', async () => {
    const g = await startGateway({ config: { tools: tools(), gateway: { pendingTtlMs: 30 } }, inSpace: ['agent-exp'] });
    try {
      const agent = g.client({ agentId: 'agent-exp' });
      const r = await agent.call('run-e', 'confirmAction', { question: 'q' });
      await new Promise((res) => setTimeout(res, 40));
      await g.gw.sweep();
      expect((await agent.getCall(r.callId)).status).toBe('expired');
      const late = await agent.submitResult('run-e', r.callId, true).catch((e: GatewayError) => e);
      expect(late).toMatchObject({ status: 410, code: 'GONE' });
      const inbox = await agent.inbox('agent-exp');
      expect(inbox).toHaveLength(1);
      expect(inbox[0]).toMatchObject({
        kind: 'tool_result',
        error: 'confirmAction got no result before the call expired',
      });
      const message = (await agent.messages('room')).messages.find((m) => m.callId === r.callId);
      expect(message).toMatchObject({ status: 'error', error: 'confirmAction got no result before the call expired' });
      const stored = await g.store.eventsAfter(0, { spaceId: 'room', types: ['space.tool'] }, 100);
      expect(stored.map((e) => e.event.type === 'space.tool' && `${e.event.callId}:${e.event.phase}`)).toEqual([
        `${r.callId}:started`,
        `${r.callId}:error`,
      ]);
    } finally {
      await g.cleanup();
    }
  });
});
