// Every refusal of the auth layer: no token, a bad token, a missing role, an agent out of scope;
// and the bind rule: loopback by default, another address only with tokens.
import type { DeclaredTool } from '../config.js';
import { GatewayClient, GatewayError } from '@toolbelt/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Auth, AuthConfigError } from '../http/auth.js';
import { BindRefusedError, isLoopback } from '../server.js';
import { startGateway, type Harness } from '../__fixtures__/harness.js';
import { errorOf } from '../__fixtures__/answers.js';

const T = {
  admin: 'admin-token-000000000000',
  callerA: 'caller-a-token-00000000',
  executorA: 'executor-a-token-000000',
  approver: 'approver-token-00000000',
  approverA: 'approver-a-token-000000',
  eventsB: 'events-b-token-00000000',
  callerB: 'caller-b-token-00000000',
  env: 'env-admin-token-0000000',
  fromEnv: 'from-env-token-00000000',
};
const confirm: DeclaredTool = {
  name: 'confirmAction',
  description: 'Asks the user.',
  inputSchema: { type: 'object' },
  executionType: 'space',
  isAsync: true,
};

let h: Harness;
beforeAll(async () => {
  h = await startGateway({
    config: {
      tools: [confirm],
      gateway: {
        tokens: [
          { token: T.admin, roles: ['admin'], name: 'ops' },
          { token: T.callerA, roles: ['call'], agents: ['agent-a'] },
          { token: T.callerB, roles: ['call'], agents: ['agent-b'] },
          { token: T.executorA, roles: ['submit', 'events'], agents: ['agent-a'] },
          { token: T.approver, roles: ['approve'], name: 'alice' },
          { token: T.approverA, roles: ['approve'], agents: ['agent-a'] },
          { token: T.eventsB, roles: ['events'], agents: ['agent-b'] },
          { tokenEnv: 'MY_GATEWAY_TOKEN', roles: ['call'] },
        ],
      },
    },
    env: { TOOLBELT_GATEWAY_TOKEN: T.env, MY_GATEWAY_TOKEN: T.fromEnv },
    inSpace: ['agent-a', 'agent-b'],
  });
});
afterAll(() => h.cleanup());

const as = (token: string | undefined, agentId = 'agent-a') => h.client({ agentId, ...(token ? { token } : {}) });
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'allowed',
    (e: GatewayError) => `${e.status} ${e.message}`,
  );

describe('bearer tokens', () => {
  it('refuses requests without a token, with a malformed header, or with an unknown token', async () => {
    expect(await refusal(as(undefined).tools())).toBe(
      '401 this gateway needs a token: send "Authorization: Bearer <token>"',
    );
    const basic = await fetch(`${h.url}/api/tools`, { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect([basic.status, (await errorOf(basic)).message]).toEqual([
      401,
      'the Authorization header must be "Bearer <token>"',
    ]);
    expect(await refusal(as('not-a-real-token-at-all').tools())).toBe(
      '401 unknown token; check the token the gateway was configured with',
    );
    expect((await fetch(`${h.url}/metrics`)).status).toBe(401);
  });

  it('leaves liveness and the API description open', async () => {
    expect((await fetch(`${h.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${h.url}/api/openapi.json`)).status).toBe(200);
  });

  it('accepts the environment token as admin and a token named by tokenEnv', async () => {
    expect((await as(T.env).tools()).length).toBeGreaterThan(0);
    expect((await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${T.env}` } })).status).toBe(200);
    expect((await as(T.fromEnv, 'anyone').call('run-1', 'echo', { text: 'x' })).status).toBe('success');
  });

  it('refuses each route to a token without its role', async () => {
    const open = await as(T.callerA).call('run-1', 'confirmAction', {});
    expect(await refusal(as(T.callerA).submitResult('run-1', open.callId, 1))).toMatch(
      /^403 this token lacks the "submit" or "person" role/,
    );
    expect(await refusal(as(T.callerA).approve(open.callId))).toMatch(/^403 this token lacks the "approve" role/);
    expect(await refusal(as(T.executorA).call('run-1', 'echo', { text: 'x' }))).toMatch(
      /^403 this token lacks the "call" role/,
    );
    expect(await refusal(as(T.approver).inbox('agent-a'))).toMatch(/^403 this token lacks the "call" role/);
    const events = await fetch(`${h.url}/api/events`, { headers: { authorization: `Bearer ${T.callerA}` } });
    expect(events.status).toBe(403);
    for (const path of ['/metrics', '/api/executions']) {
      const res = await fetch(`${h.url}${path}`, { headers: { authorization: `Bearer ${T.callerA}` } });
      expect([path, res.status]).toEqual([path, 403]);
    }
    expect((await as(T.callerA).getCall(open.callId)).status).toBe('pending');
  });

  it("keeps an agent's token away from another agent's calls, results, approvals and inbox", async () => {
    expect(await refusal(as(T.callerA, 'agent-b').call('run-1', 'echo', { text: 'x' }))).toBe(
      '403 this token may not act for agent "agent-b"',
    );
    const bCall = await as(T.callerB, 'agent-b').call('run-b', 'confirmAction', {}, { callId: 'b-open' });
    expect(bCall.status).toBe('pending');
    expect(await refusal(as(T.callerA).getCall('b-open'))).toMatch(/^404 no call "b-open"/);
    expect((await as(T.callerA).calls()).calls.map((c) => c.agentId)).not.toContain('agent-b');
    expect((await as(T.callerA).calls({ agentId: 'agent-b' })).calls).toEqual([]);
    expect(await refusal(as(T.executorA).submitResult('run-b', 'b-open', { stolen: true }))).toMatch(
      /^404 no call "b-open" in run "run-b"/,
    );
    expect(await refusal(as(T.callerA).inbox('agent-b'))).toBe('403 this token may not act for agent "agent-b"');
    expect(await refusal(as(T.callerA).ack('agent-b', [1]))).toBe('403 this token may not act for agent "agent-b"');
    expect((await as(T.admin).getCall('b-open')).status).toBe('pending');
    expect(await as(T.callerB, 'agent-b').inbox('agent-b')).toEqual([]);
  });

  it('lets a scoped approver decide only for its agents', async () => {
    const asked = as(T.callerB, 'agent-b').call('run-b', 'write_note', { note: 'n' }, { callId: 'b-note' });
    for (;;) {
      const c = await as(T.admin)
        .getCall('b-note')
        .catch(() => undefined);
      if (c?.status === 'awaiting_approval') break;
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(await refusal(as(T.approverA).approve('b-note'))).toMatch(/^404/);
    expect((await as(T.approver).reject('b-note', 'not now')).decision).toMatchObject({
      outcome: 'reject',
      by: 'alice',
    });
    expect((await asked).status).toBe('rejected');
  });

  it("streams only the token's agents' events", async () => {
    const c = new GatewayClient({ url: h.url, token: T.eventsB });
    const seen: string[] = [];
    for await (const e of c.events({ lastEventId: 0, reconnect: false })) {
      seen.push(e.agentId ?? '(none)');
      if (e.type === 'tool.result' && e.callId === 'b-marker') break;
      if (seen.length === 1)
        await as(T.callerB, 'agent-b').call('run-b', 'echo', { text: 'm' }, { callId: 'b-marker' });
    }
    expect(new Set(seen)).toEqual(new Set(['agent-b']));
    const viaQuery = await fetch(`${h.url}/api/events?access_token=${T.eventsB}`);
    expect(viaQuery.status).toBe(200);
    await viaQuery.body?.cancel();
    expect((await fetch(`${h.url}/api/tools?access_token=${T.admin}`)).status).toBe(401);
  });
});

describe('where the gateway listens', () => {
  it('refuses a non-loopback address without tokens and accepts it with them', async () => {
    const open = await startGateway();
    try {
      await expect(open.gw.listen({ host: '0.0.0.0', port: 0 })).rejects.toThrow(BindRefusedError);
      await expect(open.gw.listen({ host: '0.0.0.0', port: 0 })).rejects.toThrow(
        /refusing to listen on 0.0.0.0 without tokens/,
      );
    } finally {
      await open.cleanup();
    }
    const l = await h.gw.listen({ host: '0.0.0.0', port: 0 });
    expect((await fetch(`http://127.0.0.1:${l.port}/healthz`)).status).toBe(200);
    await l.close();
  });

  it('knows loopback addresses', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'])
      expect(isLoopback(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.5', '10.0.0.1', 'example.com'])
      expect(isLoopback(host), host).toBe(false);
  });

  it('refuses token settings that would be weak or empty', () => {
    expect(() => new Auth([{ token: 'short', roles: ['call'] }])).toThrow(AuthConfigError);
    expect(() => new Auth([{ token: 'short', roles: ['call'] }])).toThrow(/shorter than 16 characters/);
    expect(() => new Auth([{ tokenEnv: 'NOPE', roles: ['call'] }], {})).toThrow(/set the environment variable NOPE/);
    expect(() => new Auth([{ token: 'long-enough-token-123', roles: [] }])).toThrow(/at least one role/);
  });
});
