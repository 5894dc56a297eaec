// The contract every GatewayStore keeps. SQLite runs it now; a PostgreSQL store runs the same suite.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExecutionLogEntry, SuccessResult } from '@toolbelt/core';
import type { GatewayEvent } from '../../events/types.js';
import type { GatewayStore, NewCall, StoreNotice } from './types.js';

const T0 = 1_700_000_000_000;

function newCall(callId: string, over: Partial<NewCall> = {}): NewCall {
  return {
    callId,
    runId: 'run-1',
    agentId: 'agent-a',
    sessionId: 'agent-a',
    tool: 'confirm',
    input: { q: callId },
    visible: true,
    createdAt: T0,
    ...over,
  };
}

function success(callId: string): SuccessResult {
  return { status: 'success', callId, tool: 'confirm', content: [{ type: 'text', text: 'ok' }], durationMs: 1 };
}

function event(type: 'agent.state' | 'registry.changed', over: Partial<GatewayEvent> = {}): GatewayEvent {
  const base =
    type === 'agent.state' ? { type, state: 'idle' as const } : { type, change: 'added' as const, name: 'x' };
  return { ...base, ts: T0, sessionId: 's', ...over } as GatewayEvent;
}

export function storeContract(name: string, make: () => Promise<GatewayStore>): void {
  describe(`${name} keeps the gateway store contract`, () => {
    let store: GatewayStore;
    let notices: StoreNotice[];
    beforeEach(async () => {
      store = await make();
      notices = [];
      store.subscribe((n) => notices.push(n));
    });
    afterEach(async () => {
      await store.close();
    });

    it('records a call once and refuses a second call with the same id', async () => {
      expect(await store.createCall(newCall('c1'))).toBe(true);
      expect(await store.createCall(newCall('c1', { tool: 'other' }))).toBe(false);
      const c = await store.getCall('c1');
      expect(c).toMatchObject({
        callId: 'c1',
        status: 'running',
        tool: 'confirm',
        input: { q: 'c1' },
        visible: true,
        runId: 'run-1',
        agentId: 'agent-a',
      });
      expect(await store.getCall('nope')).toBeUndefined();
    });

    it('lists calls newest first, filtered by run, agents, status and tool, page by page', async () => {
      await store.createCall(newCall('a1'));
      await store.createCall(newCall('a2', { runId: 'run-2' }));
      await store.createCall(newCall('b1', { agentId: 'agent-b', tool: 'other' }));
      await store.openCall('a2', 'pending', T0 + 1000, T0);
      expect((await store.listCalls({ limit: 10 })).map((c) => c.callId)).toEqual(['b1', 'a2', 'a1']);
      expect((await store.listCalls({ runId: 'run-2', limit: 10 })).map((c) => c.callId)).toEqual(['a2']);
      expect((await store.listCalls({ agentIds: ['agent-b'], limit: 10 })).map((c) => c.callId)).toEqual(['b1']);
      expect(await store.listCalls({ agentIds: [], limit: 10 })).toEqual([]);
      expect((await store.listCalls({ statuses: ['pending'], limit: 10 })).map((c) => c.callId)).toEqual(['a2']);
      expect((await store.listCalls({ tool: 'other', limit: 10 })).map((c) => c.callId)).toEqual(['b1']);
      const first = await store.listCalls({ limit: 2 });
      const next = await store.listCalls({ limit: 2, before: first[1].seq });
      expect(next.map((c) => c.callId)).toEqual(['a1']);
      expect(await store.countCallsByStatus()).toEqual({ running: 2, pending: 1 });
    });

    it('lets exactly one approval decision through and says so to waiters', async () => {
      await store.createCall(newCall('c1'));
      const request = {
        callId: 'c1',
        sessionId: 's',
        tool: 'confirm',
        description: 'd',
        input: {},
        effect: 'write' as const,
        reason: 'r',
        warnings: [],
        remember: { kind: 'tool' as const, tool: 'confirm' },
      };
      expect(await store.requestApproval('c1', request, T0)).toBe(true);
      expect((await store.getCall('c1'))?.status).toBe('awaiting_approval');
      const first = await store.decideApproval('c1', { outcome: 'approve', scope: 'once' }, T0 + 1);
      const second = await store.decideApproval('c1', { outcome: 'reject', message: 'no' }, T0 + 2);
      expect(first.ok).toBe(true);
      expect(second).toMatchObject({ ok: false, reason: 'not_awaiting' });
      expect(await store.decideApproval('nope', { outcome: 'reject' }, T0)).toEqual({ ok: false, reason: 'not_found' });
      const c = await store.getCall('c1');
      expect(c).toMatchObject({
        status: 'running',
        decision: { outcome: 'approve', scope: 'once' },
        approval: { reason: 'r' },
      });
      expect(notices).toEqual([{ kind: 'approval.decided', callId: 'c1' }]);
    });

    it("keeps a tool's question, lets exactly one answer through and says so to waiters", async () => {
      await store.createCall(newCall('q1'));
      const question = {
        callId: 'q1',
        sessionId: 's',
        tool: 'confirm',
        source: 'MCP server "fx"',
        message: 'Which?',
        schema: { type: 'object' as const, properties: {} },
      };
      expect(await store.requestInput('nope', question, T0)).toBe(false);
      expect(await store.requestInput('q1', question, T0)).toBe(true);
      expect(await store.getCall('q1')).toMatchObject({ status: 'awaiting_input', question: { message: 'Which?' } });
      expect((await store.listCalls({ statuses: ['awaiting_input'], limit: 10 })).map((c) => c.callId)).toEqual(['q1']);
      await store.createCall(newCall('not-asked'));
      expect((await store.listCalls({ askedPerson: true, limit: 10 })).map((c) => c.callId)).toEqual(['q1']);
      const first = await store.answerInput('q1', { action: 'accept', content: { name: 'Ada' }, by: 'ada' }, T0 + 1);
      const second = await store.answerInput('q1', { action: 'decline' }, T0 + 2);
      expect(first).toMatchObject({
        ok: true,
        call: { status: 'running', answer: { action: 'accept', content: { name: 'Ada' }, by: 'ada' } },
      });
      expect(second).toMatchObject({ ok: false, reason: 'not_awaiting' });
      expect(await store.answerInput('nope', { action: 'decline' }, T0)).toEqual({ ok: false, reason: 'not_found' });
      expect(notices).toEqual([{ kind: 'input.answered', callId: 'q1' }]);
      // A second question clears the last answer; finishing ends a call that still waits for one.
      expect(await store.requestInput('q1', { ...question, message: 'And?' }, T0 + 3)).toBe(true);
      expect((await store.getCall('q1'))?.answer).toBeUndefined();
      await store.finishCall('q1', success('q1'), T0 + 4);
      expect((await store.getCall('q1'))?.status).toBe('success');
    });

    it('resolves a waiting call without an inbox message', async () => {
      await store.createCall(newCall('w1'));
      expect(await store.openCall('w1', 'waiting', T0 + 60_000, T0)).toBe(true);
      const out = await store.resolveCall('w1', 'run-1', { result: { ok: 1 } }, T0 + 5);
      expect(out).toMatchObject({
        ok: true,
        previous: 'waiting',
        call: { status: 'resolved', submitted: { result: { ok: 1 } }, resolvedAt: T0 + 5 },
      });
      expect(out.ok && out.inbox).toBeFalsy();
      expect(await store.listInbox('agent-a', { limit: 10 })).toEqual([]);
      expect(notices).toEqual([{ kind: 'call.resolved', callId: 'w1' }]);
    });

    it('delivers a pending call result to the inbox exactly once, even under concurrent submissions', async () => {
      await store.createCall(newCall('p1'));
      await store.openCall('p1', 'pending', T0 + 60_000, T0);
      const outs = await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.resolveCall('p1', 'run-1', { result: { n: i } }, T0 + 1)),
      );
      expect(outs.filter((o) => o.ok)).toHaveLength(1);
      expect(outs.filter((o) => !o.ok).every((o) => !o.ok && o.reason === 'not_open')).toBe(true);
      const inbox = await store.listInbox('agent-a', { limit: 10 });
      expect(inbox).toHaveLength(1);
      expect(inbox[0]).toMatchObject({ callId: 'p1', tool: 'confirm', runId: 'run-1', agentId: 'agent-a' });
      expect((outs.find((o) => o.ok) as { inbox: unknown }).inbox).toEqual(inbox[0]);
    });

    it('refuses results for unknown calls, other runs, finished and expired calls and changes nothing', async () => {
      await store.createCall(newCall('p1'));
      await store.openCall('p1', 'pending', T0 + 1000, T0);
      await store.createCall(newCall('r1'));
      expect(await store.resolveCall('nope', 'run-1', { result: 1 }, T0)).toEqual({ ok: false, reason: 'not_found' });
      expect(await store.resolveCall('p1', 'run-2', { result: 1 }, T0)).toEqual({ ok: false, reason: 'not_found' });
      expect(await store.resolveCall('r1', 'run-1', { result: 1 }, T0)).toMatchObject({
        ok: false,
        reason: 'not_open',
      });
      expect(await store.resolveCall('p1', 'run-1', { result: 1 }, T0 + 1000)).toMatchObject({
        ok: false,
        reason: 'expired',
      });
      expect((await store.getCall('p1'))?.status).toBe('pending');
      expect((await store.getCall('r1'))?.status).toBe('running');
      expect(await store.listInbox('agent-a', { limit: 10 })).toEqual([]);
      expect(notices).toEqual([]);
    });

    it('hands a waiting call to the inbox once its waiter lets go', async () => {
      await store.createCall(newCall('w1'));
      await store.openCall('w1', 'waiting', T0 + 60_000, T0);
      expect(await store.releaseWaiter('w1', T0 + 10)).toEqual({ outcome: 'released' });
      expect(await store.releaseWaiter('w1', T0 + 11)).toEqual({ outcome: 'other' });
      const out = await store.resolveCall('w1', 'run-1', { error: 'upstream down' }, T0 + 20);
      expect(out).toMatchObject({ ok: true, previous: 'pending' });
      expect(await store.listInbox('agent-a', { limit: 10 })).toMatchObject([{ callId: 'w1', error: 'upstream down' }]);
    });

    it('keeps the final status of a call its executor finished, but not over an open or resolved one', async () => {
      await store.createCall(newCall('s1'));
      await store.finishCall('s1', success('s1'), T0 + 1);
      expect(await store.getCall('s1')).toMatchObject({ status: 'success', result: { status: 'success' } });
      await store.createCall(newCall('p1'));
      await store.openCall('p1', 'pending', T0 + 1000, T0);
      await store.finishCall('p1', { ...success('p1'), status: 'pending' }, T0 + 1);
      expect(await store.getCall('p1')).toMatchObject({ status: 'pending', result: { status: 'pending' } });
    });

    it('expires overdue pending calls once, each with an inbox message', async () => {
      await store.createCall(newCall('p1'));
      await store.openCall('p1', 'pending', T0 + 100, T0);
      await store.createCall(newCall('p2'));
      await store.openCall('p2', 'pending', T0 + 10_000, T0);
      expect((await store.expireCalls(T0 + 100)).map((c) => c.callId)).toEqual(['p1']);
      expect(await store.expireCalls(T0 + 200)).toEqual([]);
      expect((await store.getCall('p1'))?.status).toBe('expired');
      expect(await store.resolveCall('p1', 'run-1', { result: 1 }, T0 + 300)).toMatchObject({
        ok: false,
        reason: 'expired',
      });
      const inbox = await store.listInbox('agent-a', { limit: 10 });
      expect(inbox).toHaveLength(1);
      expect(inbox[0]).toMatchObject({ kind: 'tool_result', error: expect.stringMatching(/expired/) });
    });

    it('recovers after a restart: waiting calls reopen as pending, running calls end as errors', async () => {
      await store.createCall(newCall('w1'));
      await store.openCall('w1', 'waiting', T0 + 60_000, T0);
      await store.createCall(newCall('r1'));
      await store.createCall(newCall('q1'));
      const question = {
        callId: 'q1',
        sessionId: 's',
        tool: 'confirm',
        source: 'a tool',
        message: 'Which?',
        schema: { type: 'object' as const, properties: {} },
      };
      await store.requestInput('q1', question, T0);
      expect(await store.recover(T0 + 1)).toEqual({ reopened: 1, interrupted: 2 });
      expect((await store.getCall('w1'))?.status).toBe('pending');
      expect(await store.getCall('r1')).toMatchObject({ status: 'error', result: { error: { code: 'ABORTED' } } });
      expect((await store.getCall('q1'))?.status).toBe('error');
    });

    it("acknowledges only the agent's own unread inbox messages", async () => {
      for (const [id, agent] of [
        ['p1', 'agent-a'],
        ['p2', 'agent-a'],
        ['p3', 'agent-b'],
      ] as const) {
        await store.createCall(newCall(id, { agentId: agent }));
        await store.openCall(id, 'pending', T0 + 60_000, T0);
        await store.resolveCall(id, 'run-1', { result: id }, T0 + 1);
      }
      const a = await store.listInbox('agent-a', { limit: 10 });
      const b = await store.listInbox('agent-b', { limit: 10 });
      expect(a.map((m) => m.kind === 'tool_result' && m.result)).toEqual(['p1', 'p2']);
      expect(await store.ackInbox('agent-a', [a[0].id, b[0].id], T0 + 2)).toBe(1);
      expect(await store.ackInbox('agent-a', [a[0].id], T0 + 3)).toBe(0);
      expect(
        (await store.listInbox('agent-a', { limit: 10 })).map((m) => m.kind === 'tool_result' && m.callId),
      ).toEqual(['p2']);
      expect((await store.listInbox('agent-a', { limit: 10, includeAcked: true }))[0]).toMatchObject({
        callId: 'p1',
        ackedAt: T0 + 2,
      });
      expect(await store.listInbox('agent-b', { limit: 10 })).toHaveLength(1);
      expect(
        (await store.listInbox('agent-a', { limit: 10, after: a[0].id, includeAcked: true })).map(
          (m) => m.kind === 'tool_result' && m.callId,
        ),
      ).toEqual(['p2']);
    });

    it('appends events with increasing ids and replays them after an id, filtered', async () => {
      const ids = await store.appendEvents([
        event('agent.state', { runId: 'r1', agentId: 'a' }),
        event('registry.changed'),
        event('agent.state', { runId: 'r2', agentId: 'b', ts: T0 + 5 }),
      ]);
      expect(ids[1]).toBeGreaterThan(ids[0]);
      expect(ids[2]).toBeGreaterThan(ids[1]);
      expect(await store.lastEventId()).toBe(ids[2]);
      expect((await store.eventsAfter(ids[0], {}, 10)).map((e) => e.id)).toEqual([ids[1], ids[2]]);
      expect((await store.eventsAfter(0, { runId: 'r2' }, 10)).map((e) => e.event.agentId)).toEqual(['b']);
      expect((await store.eventsAfter(0, { agentIds: ['a'] }, 10)).map((e) => e.id)).toEqual([ids[0]]);
      expect((await store.eventsAfter(0, { types: ['registry.changed'] }, 10)).map((e) => e.id)).toEqual([ids[1]]);
      expect((await store.eventsAfter(0, {}, 2)).map((e) => e.id)).toEqual([ids[0], ids[1]]);
      expect(await store.pruneEvents(T0 + 1)).toBe(2);
      expect((await store.eventsAfter(0, {}, 10)).map((e) => e.id)).toEqual([ids[2]]);
    });

    it('keeps the execution log and filters it', async () => {
      const entry = (callId: string, tool: string, status: ExecutionLogEntry['status']): ExecutionLogEntry => ({
        callId,
        tool,
        status,
        params: { x: 1 },
        durationMs: 2,
        timestamp: new Date(T0).toISOString(),
        sessionId: 's',
        agentId: 'a',
        runId: 'r',
      });
      await store.appendExecutions([entry('c1', 'read_file', 'success'), entry('c2', 'write_file', 'rejected')]);
      expect((await store.listExecutions({ limit: 10 })).entries.map((e) => e.callId)).toEqual(['c2', 'c1']);
      expect((await store.listExecutions({ tool: 'read_file', limit: 10 })).entries).toEqual([
        entry('c1', 'read_file', 'success'),
      ]);
      expect(
        (await store.listExecutions({ status: 'rejected', agentId: 'a', runId: 'r', limit: 10 })).entries.map(
          (e) => e.callId,
        ),
      ).toEqual(['c2']);
      expect(await store.listExecutions({ since: new Date(T0 + 1).toISOString(), limit: 10 })).toEqual({ entries: [] });
      // Pages: a full page says where the next one starts; the last one does not.
      const first = await store.listExecutions({ limit: 1 });
      expect(first.entries.map((e) => e.callId)).toEqual(['c2']);
      const second = await store.listExecutions({ limit: 1, before: first.nextBefore });
      expect(second.entries.map((e) => e.callId)).toEqual(['c1']);
      expect(await store.listExecutions({ limit: 1, before: second.nextBefore })).toEqual({ entries: [] });
      expect((await store.listExecutions({ limit: 5 })).nextBefore).toBeUndefined();
    });

    it('saves remembered approvals and loads them back', async () => {
      const entry = {
        target: { kind: 'prefix' as const, tool: 'shell_exec', prefix: 'npm test' },
        scope: 'always' as const,
        createdAt: T0,
      };
      await store.saveRemembered(entry);
      expect(await store.loadRemembered()).toEqual([entry]);
    });
  });
}
