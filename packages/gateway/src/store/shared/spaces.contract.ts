// The contract every GatewayStore keeps for spaces, messages, agents' notes and think cycles.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GatewayStore, StoreNotice } from './types.js';

const T0 = 1_700_000_000_000;

export function spacesContract(name: string, make: () => Promise<GatewayStore>): void {
  describe(`${name} keeps the spaces contract`, () => {
    let store: GatewayStore;
    let notices: StoreNotice[];
    beforeEach(async () => {
      store = await make();
      notices = [];
      store.subscribe((n) => notices.push(n));
      const s = store.spaces;
      expect(await s.createSpace({ id: 'room', name: 'Room', createdAt: T0 })).toBe(true);
      for (const [memberId, kind] of [
        ['husam', 'person'],
        ['planner', 'agent'],
        ['coder', 'agent'],
      ] as const)
        expect(await s.addMember({ spaceId: 'room', memberId, kind, joinedAt: T0 })).toBe(true);
    });
    afterEach(async () => {
      await store.close();
    });

    it('creates a space once and lists spaces, all or by member', async () => {
      const s = store.spaces;
      expect(await s.createSpace({ id: 'room', name: 'Other', createdAt: T0 })).toBe(false);
      await s.createSpace({ id: 'side', name: 'Side', createdAt: T0 + 1 });
      expect(await s.getSpace('room')).toEqual({ id: 'room', name: 'Room', createdAt: T0 });
      expect(await s.getSpace('nope')).toBeUndefined();
      expect((await s.listSpaces()).map((x) => x.id)).toEqual(['room', 'side']);
      expect((await s.listSpaces(['husam'])).map((x) => x.id)).toEqual(['room']);
      expect(await s.listSpaces([])).toEqual([]);
      expect(await s.addMember({ spaceId: 'nope', memberId: 'x', kind: 'agent', joinedAt: T0 })).toBe(false);
      expect(await s.shareSpace('husam', 'planner')).toBe(true);
      expect(await s.shareSpace('husam', 'stranger')).toBe(false);
    });

    it("puts a message in every other agent member's inbox, not the sender's, atomically", async () => {
      const out = await store.spaces.postText('room', 'planner', 'hello', T0 + 1);
      expect(out).toMatchObject({
        ok: true,
        message: { senderId: 'planner', senderKind: 'agent', kind: 'text', text: 'hello', status: 'complete' },
      });
      expect(out.ok && out.inbox.map((m) => m.agentId)).toEqual(['coder']);
      expect(await store.listInbox('planner', { limit: 10 })).toEqual([]);
      expect(await store.listInbox('coder', { limit: 10 })).toMatchObject([
        { kind: 'message', spaceId: 'room', message: { text: 'hello' } },
      ]);
      const fromPerson = await store.spaces.postText('room', 'husam', 'hi all', T0 + 2);
      expect(fromPerson.ok && fromPerson.inbox.map((m) => m.agentId).sort()).toEqual(['coder', 'planner']);
      expect(notices).toEqual([
        { kind: 'inbox.added', agentId: 'coder' },
        { kind: 'inbox.added', agentId: expect.any(String) },
        { kind: 'inbox.added', agentId: expect.any(String) },
      ]);
    });

    it('refuses a message to an unknown space or from a non-member, and stores nothing', async () => {
      expect(await store.spaces.postText('nope', 'husam', 'x', T0)).toEqual({ ok: false, reason: 'no_space' });
      expect(await store.spaces.postText('room', 'stranger', 'x', T0)).toEqual({ ok: false, reason: 'not_member' });
      expect(await store.spaces.listMessages('room', 0, 10)).toEqual({ messages: [], total: 0 });
      expect(await store.listInbox('coder', { limit: 10 })).toEqual([]);
    });

    it('pages messages oldest first by offset and limit', async () => {
      for (let i = 0; i < 5; i++) await store.spaces.postText('room', 'husam', `m${i}`, T0 + i);
      const page = await store.spaces.listMessages('room', 1, 2);
      expect(page.total).toBe(5);
      expect(page.messages.map((m) => m.text)).toEqual(['m1', 'm2']);
    });

    it('takes a space call from running to requires_action to complete when a person answers', async () => {
      await store.createCall({
        callId: 'c1',
        runId: 'r1',
        agentId: 'planner',
        sessionId: 's',
        tool: 'confirm',
        input: { q: 1 },
        visible: true,
        createdAt: T0,
      });
      const posted = await store.spaces.postToolCall({
        spaceId: 'room',
        senderId: 'planner',
        callId: 'c1',
        runId: 'r1',
        tool: 'confirm',
        input: { q: 1 },
        createdAt: T0,
      });
      expect(posted).toMatchObject({ kind: 'tool_call', status: 'running', callId: 'c1', input: { q: 1 } });
      await store.openCall('c1', 'pending', T0 + 60_000, T0);
      expect(await store.spaces.requireAction('c1', T0 + 1)).toMatchObject({ status: 'requires_action' });
      expect(await store.spaces.requireAction('c1', T0 + 1)).toBeUndefined();
      const out = await store.resolveCall('c1', 'r1', { result: { confirmed: true } }, T0 + 2);
      expect(out).toMatchObject({
        ok: true,
        message: { status: 'complete', result: { confirmed: true } },
        inbox: { kind: 'tool_result', callId: 'c1' },
      });
      expect(await store.spaces.messageOfCall('c1')).toMatchObject({ status: 'complete' });
      expect(await store.resolveCall('c1', 'r1', { result: 2 }, T0 + 3)).toMatchObject({
        ok: false,
        reason: 'not_open',
      });
      expect(await store.listInbox('planner', { limit: 10 })).toHaveLength(1);
    });

    it('settles the message of an inline call when it finishes, but not of a call left open', async () => {
      await store.createCall({
        callId: 'c2',
        runId: 'r1',
        agentId: 'planner',
        sessionId: 's',
        tool: 'chart',
        input: {},
        visible: true,
        createdAt: T0,
      });
      await store.spaces.postToolCall({
        spaceId: 'room',
        senderId: 'planner',
        callId: 'c2',
        runId: 'r1',
        tool: 'chart',
        input: {},
        createdAt: T0,
      });
      const done = await store.finishCall(
        'c2',
        { status: 'success', callId: 'c2', tool: 'chart', content: [], structured: { ok: 1 }, durationMs: 1 },
        T0 + 1,
      );
      expect(done).toMatchObject({ status: 'complete', result: { ok: 1 } });
      await store.createCall({
        callId: 'c3',
        runId: 'r1',
        agentId: 'planner',
        sessionId: 's',
        tool: 'ask',
        input: {},
        visible: true,
        createdAt: T0,
      });
      await store.spaces.postToolCall({
        spaceId: 'room',
        senderId: 'planner',
        callId: 'c3',
        runId: 'r1',
        tool: 'ask',
        input: {},
        createdAt: T0,
      });
      await store.openCall('c3', 'pending', T0 + 60_000, T0);
      expect(
        await store.finishCall(
          'c3',
          { status: 'pending', callId: 'c3', tool: 'ask', content: [], durationMs: 1 },
          T0 + 1,
        ),
      ).toBeUndefined();
      expect((await store.spaces.messageOfCall('c3'))?.status).toBe('running');
    });

    it("keeps each agent's active space, and clears it when the agent leaves the space", async () => {
      expect(await store.spaces.activeSpace('planner')).toBeUndefined();
      await store.spaces.setActiveSpace('planner', 'room', T0);
      expect(await store.spaces.activeSpace('planner')).toBe('room');
      expect(await store.spaces.removeMember('room', 'planner')).toBe(true);
      expect(await store.spaces.removeMember('room', 'planner')).toBe(false);
      expect(await store.spaces.activeSpace('planner')).toBeUndefined();
      expect((await store.spaces.listMembers('room')).map((m) => m.memberId).sort()).toEqual(['coder', 'husam']);
    });

    it("sets, updates, lists and deletes an agent's goals, memories and plans apart", async () => {
      const s = store.spaces;
      await s.setNotes(
        'planner',
        'goals',
        [
          { id: 'g1', text: 'ship' },
          { id: 'g2', text: 'test' },
        ],
        T0,
      );
      await s.setNotes('planner', 'goals', [{ id: 'g1', text: 'ship v2' }], T0 + 1);
      await s.setNotes('planner', 'plans', [{ id: 'p1', text: 'step 1' }], T0);
      expect((await s.listNotes('planner', 'goals')).map((n) => [n.id, n.text])).toEqual([
        ['g1', 'ship v2'],
        ['g2', 'test'],
      ]);
      expect(await s.listNotes('coder', 'goals')).toEqual([]);
      expect(await s.deleteNotes('planner', 'goals', ['g2', 'nope'])).toEqual(['g2']);
      expect((await s.listNotes('planner', 'goals')).map((n) => n.id)).toEqual(['g1']);
      expect((await s.listNotes('planner', 'plans')).map((n) => n.id)).toEqual(['p1']);
    });

    it('hands each inbox message to one think cycle only, oldest first, and acknowledges it when the cycle is done', async () => {
      for (let i = 0; i < 3; i++) await store.spaces.postText('room', 'husam', `m${i}`, T0 + i);
      const first = await store.spaces.takeCycle('planner', 'cy1', 2, T0 + 10);
      expect(first.map((m) => m.kind === 'message' && m.message.text)).toEqual(['m0', 'm1']);
      expect(first.every((m) => m.cycleId === 'cy1')).toBe(true);
      const second = await store.spaces.takeCycle('planner', 'cy2', 10, T0 + 11);
      expect(second.map((m) => m.kind === 'message' && m.message.text)).toEqual(['m2']);
      expect(await store.spaces.takeCycle('planner', 'cy3', 10, T0 + 12)).toEqual([]);
      expect(await store.spaces.finishCycle('planner', 'cy1', T0 + 13)).toEqual({ ok: true, acknowledged: 2 });
      expect(await store.spaces.finishCycle('planner', 'cy1', T0 + 14)).toEqual({ ok: true, acknowledged: 0 });
      expect(await store.spaces.finishCycle('coder', 'cy2', T0 + 14)).toEqual({ ok: false, reason: 'not_found' });
      expect(await store.spaces.finishCycle('planner', 'cy3', T0 + 14)).toEqual({ ok: false, reason: 'not_found' });
      expect((await store.listInbox('planner', { limit: 10 })).map((m) => m.cycleId)).toEqual(['cy2']);
    });

    it('offers the messages of a cycle not done within its lease to the next cycle, and a heartbeat extends the lease', async () => {
      for (let i = 0; i < 2; i++) await store.spaces.postText('room', 'husam', `m${i}`, T0 + i);
      expect(await store.spaces.takeCycle('planner', 'cy1', 10, T0 + 10, T0 + 100)).toHaveLength(2);
      // The control: within the lease nothing is offered twice.
      expect(await store.spaces.takeCycle('planner', 'cy2', 10, T0 + 99, T0 + 200)).toEqual([]);
      const again = await store.spaces.takeCycle('planner', 'cy2', 10, T0 + 100, T0 + 200);
      expect(again.map((m) => m.kind === 'message' && m.message.text)).toEqual(['m0', 'm1']);
      expect(await store.spaces.extendCycle('planner', 'cy2', T0 + 1000)).toBe(true);
      expect(await store.spaces.takeCycle('planner', 'cy3', 10, T0 + 500, T0 + 600)).toEqual([]);
      // The first cycle's late done acknowledges nothing: its messages are the second's now.
      expect(await store.spaces.finishCycle('planner', 'cy1', T0 + 501)).toEqual({ ok: true, acknowledged: 0 });
      expect(await store.spaces.finishCycle('planner', 'cy2', T0 + 502)).toEqual({ ok: true, acknowledged: 2 });
      expect(await store.spaces.extendCycle('planner', 'cy2', T0 + 2000)).toBe(false);
      expect(await store.spaces.takeCycle('planner', 'cy4', 10, T0 + 5000, T0 + 6000)).toEqual([]);
    });
  });
}
