// Each built-in gateway tool over real HTTP: entering, leaving, speaking and reading in spaces,
// skipping a cycle, and an agent's goals, memories and plans (which people read over HTTP).
import type { ToolResult } from '@toolbelt/core';
import type { GatewayClient } from '@toolbelt/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Harness } from '../__fixtures__/harness.js';

let h: Harness;
let admin: GatewayClient;
let agent: GatewayClient;
beforeAll(async () => {
  h = await startGateway();
  admin = h.client();
  agent = h.client({ agentId: 'ada' });
  await admin.createSpace('Main', 'main');
  await admin.createSpace('Side', 'side');
  await admin.createSpace('Closed', 'closed');
  for (const s of ['main', 'side']) await admin.addMember(s, 'ada', 'agent');
  await admin.addMember('main', 'bea', 'agent');
  await admin.addMember('main', 'cy', 'person');
});
afterAll(() => h.cleanup());

const out = (r: ToolResult) => r.structured as Record<string, any>;
const errorOf = (r: ToolResult) => (r.status === 'error' ? r.error.message : `not an error: ${r.status}`);

describe('built-in gateway tools', () => {
  it('are listed for every agent, invisible', async () => {
    const tools = await admin.tools();
    const names = [
      'enter_space',
      'leave_space',
      'send_message',
      'read_messages',
      'skip',
      'set_goals',
      'delete_goals',
      'set_memories',
      'delete_memories',
      'set_plans',
      'delete_plans',
      'get_plans',
    ];
    for (const n of names)
      expect(
        tools.find((t) => t.name === n),
        n,
      ).toMatchObject({ visible: false });
    const spaceIds = tools.filter((t) => JSON.stringify(t.inputSchema).includes('"spaceId"')).map((t) => t.name);
    expect(spaceIds.sort()).toEqual(['enter_space', 'read_messages']);
  });

  it('enter_space sets the active space and returns its latest messages; refuses unknown spaces and non-members', async () => {
    for (let i = 0; i < 3; i++) await admin.postMessage('main', 'cy', `m${i}`);
    const r = await agent.call('t1', 'enter_space', { spaceId: 'main', limit: 2 });
    expect(out(r)).toMatchObject({ spaceId: 'main', offset: 1, total: 3 });
    expect(out(r).messages.map((m: { text: string }) => m.text)).toEqual(['m1', 'm2']);
    expect(errorOf(await agent.call('t1', 'enter_space', { spaceId: 'nowhere' }))).toMatch(/no space "nowhere"/);
    expect(errorOf(await agent.call('t1', 'enter_space', { spaceId: 'closed' }))).toMatch(
      /not a member of space "closed"; a person must add you/,
    );
  });

  it('send_message posts to the active space only, reaching the other agents', async () => {
    await agent.call('t2', 'enter_space', { spaceId: 'main' });
    const r = await agent.call('t2', 'send_message', { text: 'hi from ada' });
    expect(out(r)).toMatchObject({ spaceId: 'main', delivered: ['bea'] });
    const last = (await admin.messages('main', { offset: 3 })).messages;
    expect(last).toMatchObject([{ senderId: 'ada', senderKind: 'agent', text: 'hi from ada' }]);
  });

  it('read_messages reads the active space by default, or another space the agent is in, by offset', async () => {
    await agent.call('t3', 'enter_space', { spaceId: 'main' });
    const all = out(await agent.call('t3', 'read_messages', { offset: 0, limit: 2 }));
    expect(all.messages.map((m: { text: string }) => m.text)).toEqual(['m0', 'm1']);
    expect(out(await agent.call('t3', 'read_messages', { spaceId: 'side' }))).toMatchObject({
      spaceId: 'side',
      total: 0,
      messages: [],
    });
    expect(errorOf(await agent.call('t3', 'read_messages', { spaceId: 'closed' }))).toMatch(/not a member/);
  });

  it('leave_space clears the active space: send_message and visible tools need enter_space again', async () => {
    await agent.call('t4', 'enter_space', { spaceId: 'side' });
    expect(await agent.call('t4', 'leave_space', {})).toMatchObject({
      status: 'success',
      content: [{ text: 'Left space "side".' }],
    });
    expect(await agent.call('t4', 'leave_space', {})).toMatchObject({
      content: [{ text: 'You were not in a space.' }],
    });
    expect(errorOf(await agent.call('t4', 'send_message', { text: 'x' }))).toBe(
      'send_message: you are not in a space. Call enter_space first.',
    );
    expect(errorOf(await agent.call('t4', 'read_messages', {}))).toMatch(/give spaceId or call enter_space first/);
  });

  it('skip ends the cycle without acting', async () => {
    expect(await agent.call('t5', 'skip', { reason: 'nothing new' })).toMatchObject({
      status: 'success',
      content: [{ text: 'Skipped. This cycle ends without action.' }],
    });
  });

  it('set_goals, set_memories and set_plans create and update by id; delete_* removes; get_plans reads; people read them over HTTP', async () => {
    const set = out(
      await agent.call('t6', 'set_goals', { goals: [{ text: 'book Tokyo' }, { id: 'g-rev', text: 'review' }] }),
    );
    expect(set.goals).toHaveLength(2);
    const made = set.goals[0].id as string;
    await agent.call('t6', 'set_goals', { goals: [{ id: made, text: 'book Tokyo hotel' }] });
    expect((await admin.notes('ada', 'goals')).map((n) => [n.id, n.text])).toEqual([
      [made, 'book Tokyo hotel'],
      ['g-rev', 'review'],
    ]);
    expect(out(await agent.call('t6', 'delete_goals', { ids: ['g-rev', 'g-none'] }))).toEqual({
      deleted: ['g-rev'],
      notFound: ['g-none'],
    });
    await agent.call('t6', 'set_memories', { memories: [{ id: 'm1', text: 'Husam likes quiet rooms' }] });
    expect(await agent.agent('ada').notes('memories')).toMatchObject([{ id: 'm1', text: 'Husam likes quiet rooms' }]);
    expect(out(await agent.call('t6', 'delete_memories', { ids: ['m1'] }))).toEqual({ deleted: ['m1'], notFound: [] });
    await agent.call('t6', 'set_plans', { plans: [{ id: 'p1', text: '1. ask 2. book' }] });
    expect(out(await agent.call('t6', 'get_plans', {}))).toMatchObject({
      plans: [{ id: 'p1', text: '1. ask 2. book' }],
    });
    await agent.call('t6', 'delete_plans', { ids: ['p1'] });
    expect(out(await agent.call('t6', 'get_plans', {}))).toEqual({ plans: [] });
    expect(await admin.notes('bea', 'goals')).toEqual([]);
    expect((await agent.call('t6', 'set_goals', { goals: [] })).error?.code).toBe('INVALID_PARAMS');
  });
});
