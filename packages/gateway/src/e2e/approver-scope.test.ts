// An approver token sees what it must decide — the calls that asked a person, with their request,
// context and preview — and not the agents' spaces, messages, notes or other calls. A space is
// granted to it only by making it a person member. Admin still sees everything.
import { GatewayClient, GatewayError } from '@toolbelt/client';
import type { ToolResult } from '@toolbelt/core';
import type { StreamedEvent } from '@toolbelt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, until, type Harness } from '../__fixtures__/harness.js';
import { errorOf } from '../__fixtures__/answers.js';

const T = {
  admin: 'admin-token-0123456789',
  agent: 'agent-token-0123456789',
  alice: 'alice-approver-token-01',
  carol: 'carol-approver-person-1',
};

let h: Harness;
let asked: Promise<ToolResult>;
let echoId: string;
const as = (token: string) => new GatewayClient({ url: h.url, token, agentId: 'agent-a' });

beforeAll(async () => {
  h = await startGateway({
    config: {
      gateway: {
        tokens: [
          { token: T.admin, roles: ['admin'], name: 'ops' },
          { token: T.agent, roles: ['call'], agents: ['agent-a'] },
          // The approver of the docs' example: approve + events, every agent.
          { token: T.alice, roles: ['approve', 'events'], name: 'alice' },
          // An approver the config also makes a person, a member of one space.
          { token: T.carol, roles: ['approve', 'events', 'person'], name: 'carol' },
        ],
      },
    },
  });
  const admin = as(T.admin);
  await admin.createSpace('Room', 'room');
  await admin.addMember('room', 'agent-a', 'agent');
  await admin.createSpace('Carol', 'carols');
  await admin.addMember('carols', 'carol', 'person');
  await admin.addMember('carols', 'agent-a', 'agent');
  const agent = as(T.agent);
  await agent.postMessage('room', 'agent-a', 'the secret plan is in room');
  await h.store.spaces.setNotes('agent-a', 'goals', [{ id: 'g1', text: 'private goal' }], Date.now());
  echoId = (await agent.call('run', 'echo', { text: 'not for approvers' })).callId;
  asked = agent.call('run', 'write_note', { note: 'n' }, { callId: 'ask-1', context: 'fixing the login bug' });
  await until(
    () => h.store.getCall('ask-1'),
    (c) => c?.status === 'awaiting_approval',
    'ask-1 to be asked',
  );
});
afterAll(() => h.cleanup());

async function status(p: Promise<unknown>): Promise<number | 'ok'> {
  return p.then(
    () => 'ok',
    (e: GatewayError) => e.status,
  );
}

/** Every stored event this token's stream replays from the start, until it is caught up. */
async function replay(token: string, types?: StreamedEvent['type'][]): Promise<StreamedEvent[]> {
  const stop = new AbortController();
  const seen: StreamedEvent[] = [];
  for await (const e of as(token).events({
    lastEventId: 0,
    signal: stop.signal,
    reconnect: false,
    onReady: () => stop.abort(),
    ...(types ? { types } : {}),
  }))
    seen.push(e);
  return seen;
}

describe('an approver token', () => {
  it("sees no space, message, member list or note of the agents'", async () => {
    const alice = as(T.alice);
    expect(await alice.spaces()).toEqual([]);
    expect(await status(alice.messages('room'))).toBe(404);
    expect(await status(alice.members('room'))).toBe(404);
    expect(await status(alice.notes('agent-a', 'goals'))).toBe(403);
    const stream = await fetch(`${h.url}/api/spaces/room/events`, { headers: { authorization: `Bearer ${T.alice}` } });
    expect(stream.status).toBe(404);
    const spaceEvents = await fetch(`${h.url}/api/events?types=space.message`, {
      headers: { authorization: `Bearer ${T.alice}` },
    });
    expect(spaceEvents.status).toBe(403);
    expect((await errorOf(spaceEvents)).message).toContain('this token may not stream space.message');
  });

  it('sees the call waiting for it, with its request and context, and approves it', async () => {
    const alice = as(T.alice);
    const listed = await alice.calls({ status: ['awaiting_approval'] });
    expect(listed.calls.map((c) => c.callId)).toEqual(['ask-1']);
    expect((await alice.getCall('ask-1')).approval).toMatchObject({
      tool: 'write_note',
      input: { note: 'n' },
      context: 'fixing the login bug',
    });
    // Calls that never asked a person are not its business.
    expect((await alice.calls()).calls.map((c) => c.callId)).toEqual(['ask-1']);
    expect(await status(alice.getCall(echoId))).toBe(404);
    await alice.approve('ask-1');
    expect((await asked).status).toBe('success');
    expect((await alice.getCall('ask-1')).decision).toMatchObject({ outcome: 'approve', by: 'alice' });
  });

  it('streams what it approves: requests and decisions, and a call ending without its output', async () => {
    const events = await replay(T.alice);
    const types = new Set(events.map((e) => e.type));
    expect([...types].sort()).toEqual(['approval.requested', 'approval.resolved', 'tool.result']);
    expect(events.find((e) => e.type === 'approval.requested')).toMatchObject({
      callId: 'ask-1',
      request: { context: 'fixing the login bug' },
    });
    for (const e of events.filter((x) => x.type === 'tool.result'))
      expect(e).toMatchObject({ result: { content: [] } });
    expect(JSON.stringify(events)).not.toMatch(/not for approvers|secret plan|private goal/);
    expect(await status(replay(T.alice, ['tool.call']))).toBe(403);
  });

  it('sees the space the config makes it a member of, and only that one', async () => {
    const carol = as(T.carol);
    expect((await carol.spaces()).map((s) => s.id)).toEqual(['carols']);
    expect(await status(carol.messages('carols'))).toBe('ok');
    expect(await status(carol.messages('room'))).toBe(404);
    expect(await status(carol.notes('agent-a', 'goals'))).toBe('ok');
  });
});

describe('an admin token, for comparison', () => {
  it('sees every space, message, note and call, and every event', async () => {
    const admin = as(T.admin);
    expect((await admin.spaces()).map((s) => s.id).sort()).toEqual(['carols', 'room']);
    expect((await admin.messages('room')).messages.map((m) => m.text)).toContain('the secret plan is in room');
    expect((await admin.notes('agent-a', 'goals')).map((n) => n.text)).toEqual(['private goal']);
    expect((await admin.getCall(echoId)).status).toBe('success');
    const events = await replay(T.admin);
    expect(events.some((e) => e.type === 'space.message')).toBe(true);
    expect(JSON.stringify(events)).toContain('not for approvers');
  });
});
