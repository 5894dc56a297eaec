// Spaces with tokens and bad input: a person posts and answers only in its own spaces, as itself;
// unknown spaces, non-members, a second answer and an answer given in another space each get a
// clear 4xx and change nothing.
import { GatewayClient, GatewayError, type SpaceMessage } from '@toolbelt/client';
import type { DeclaredTool } from '../config.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Harness } from '../__fixtures__/harness.js';

const T = {
  admin: 'admin-token-0123456789',
  husam: 'husam-token-0123456789',
  eve: 'eve-token-01234567890',
  agent: 'agent-token-0123456789',
};
const confirm: DeclaredTool = {
  name: 'confirmAction',
  description: 'Ask to confirm.',
  inputSchema: { type: 'object' },
  executionType: 'space',
  isAsync: true,
};

let h: Harness;
const as = (token: string, agentId = 'planner') => new GatewayClient({ url: h.url, token, agentId });
beforeAll(async () => {
  h = await startGateway({
    config: {
      tools: [confirm],
      gateway: {
        tokens: [
          { token: T.admin, roles: ['admin'], name: 'ops' },
          { token: T.husam, roles: ['person'], name: 'husam' },
          { token: T.eve, roles: ['person'], name: 'eve' },
          { token: T.agent, roles: ['call'], agents: ['planner'] },
        ],
      },
    },
  });
  const admin = as(T.admin);
  for (const [id, name] of [
    ['trip', 'Trip'],
    ['other', 'Other'],
  ])
    await admin.createSpace(name, id);
  await admin.addMember('trip', 'husam', 'person');
  await admin.addMember('trip', 'planner', 'agent');
  await admin.addMember('other', 'eve', 'person');
  await admin.addMember('other', 'planner', 'agent');
});
afterAll(() => h.cleanup());

async function refusal(p: Promise<unknown>): Promise<[number, string]> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof GatewayError)) throw new Error(`expected a refusal, got ${String(err)}`);
  return [err.status, err.message];
}

/** The planner asks in `space` and returns the call's message. */
async function ask(space: string): Promise<SpaceMessage> {
  const agent = as(T.agent);
  await agent.call('r', 'enter_space', { spaceId: space });
  const r = await agent.call('r', 'confirmAction', { q: space });
  expect(r.status).toBe('pending');
  return (await as(T.admin).messages(space)).messages.find((m) => m.callId === r.callId)!;
}

describe('people in spaces', () => {
  it('a person sees and posts only in its spaces, as itself; admin manages spaces', async () => {
    const husam = as(T.husam);
    expect((await husam.spaces()).map((s) => s.id)).toEqual(['trip']);
    expect((await husam.postMessage('trip', 'husam', 'hello')).delivered).toEqual(['planner']);
    expect(await refusal(husam.postMessage('trip', 'planner', 'spoofed'))).toEqual([
      403,
      'this token may not post as "planner"',
    ]);
    expect((await refusal(husam.messages('other')))[0]).toBe(404);
    expect((await refusal(husam.createSpace('Mine')))[0]).toBe(403);
    expect((await refusal(husam.addMember('trip', 'eve', 'person')))[0]).toBe(403);
    expect(await husam.notes('planner', 'goals')).toEqual([]);
    expect((await refusal(as(T.eve).notes('nobody', 'goals')))[0]).toBe(403);
  });

  it('a person answers a space call in its space once; a second answer and strangers are refused, nothing changed', async () => {
    const m = await ask('trip');
    expect((await refusal(as(T.eve).answer(m, { confirmed: false })))[0]).toBe(404);
    expect(await as(T.husam).answer(m, { confirmed: true })).toMatchObject({ delivered: 'inbox' });
    expect(await refusal(as(T.husam).answer(m, { confirmed: false }))).toEqual([
      409,
      `call "${m.callId}" already has its result; a result is accepted once`,
    ]);
    const inbox = (await as(T.agent).inbox('planner')).filter((x) => x.kind === 'tool_result');
    expect(inbox).toMatchObject([{ callId: m.callId, result: { confirmed: true } }]);
  });

  it('refuses an answer given in another space, and the call stays open', async () => {
    const m = await ask('other');
    expect(await refusal(as(T.admin).answer({ ...m, spaceId: 'trip' }, { confirmed: true }))).toEqual([
      404,
      `call "${m.callId}" was not posted in space "trip"; answer it in the space it was posted to`,
    ]);
    expect((await as(T.admin).messages('other')).messages.find((x) => x.callId === m.callId)?.status).toBe(
      'requires_action',
    );
    expect((await as(T.admin).getCall(m.callId!)).status).toBe('pending');
  });
});

describe('bad input to spaces', () => {
  it('an unknown space, a non-member sender, a taken id and a malformed body: clear 4xx, nothing stored', async () => {
    const admin = as(T.admin);
    expect(await refusal(admin.postMessage('nowhere', 'husam', 'x'))).toEqual([
      404,
      'no space "nowhere"; list spaces with GET /api/spaces',
    ]);
    expect(await refusal(admin.addMember('nowhere', 'x', 'agent'))).toEqual([
      404,
      'no space "nowhere"; create it with POST /api/spaces',
    ]);
    expect(await refusal(admin.postMessage('trip', 'stranger', 'x'))).toEqual([
      403,
      '"stranger" is not a member of space "trip"; add it with POST /api/spaces/trip/members',
    ]);
    expect((await refusal(admin.createSpace('Again', 'trip')))[0]).toBe(409);
    const bad = await fetch(`${h.url}/api/spaces/trip/members`, {
      method: 'POST',
      headers: { authorization: `Bearer ${T.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ memberId: 'x', kind: 'robot' }),
    });
    expect(bad.status).toBe(400);
    expect((await admin.members('trip')).map((x) => x.memberId).sort()).toEqual(['husam', 'planner']);
    expect((await admin.messages('trip')).messages.every((x) => x.senderId !== 'stranger')).toBe(true);
  });

  it('a finished cycle is done again harmlessly; an unknown one and another agent are refused', async () => {
    const agent = as(T.agent);
    await as(T.admin).postMessage('trip', 'husam', 'new');
    const c = await agent.takeCycle('planner');
    expect(c.cycleId).not.toBeNull();
    await agent.finishCycle('planner', c.cycleId!);
    expect(await agent.finishCycle('planner', c.cycleId!)).toEqual({ cycleId: c.cycleId, acknowledged: 0 });
    expect((await refusal(agent.finishCycle('planner', 'cy_none')))[0]).toBe(404);
    expect((await refusal(agent.takeCycle('someone-else')))[0]).toBe(403);
  });
});
