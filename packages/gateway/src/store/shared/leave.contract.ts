// The contract for calls whose waiter leaves: whatever ends the wait (a timeout, a database error,
// a hang-up, a restart), the call ends up pending, so its result reaches the inbox exactly once.
import { errorResult } from '@toolbelt/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GatewayStore, LeaveWait, NewCall } from './types.js';

const T0 = 1_700_000_000_000;

function newCall(callId: string, over: Partial<NewCall> = {}): NewCall {
  return {
    callId,
    runId: 'run-1',
    agentId: 'agent-a',
    sessionId: 'agent-a',
    tool: 'confirm',
    input: { q: callId },
    visible: false,
    createdAt: T0,
    ...over,
  };
}

const leaving = (callId: string, orInbox: boolean): LeaveWait => ({
  why: errorResult(callId, 'confirm', 'EXECUTION_FAILED', 'the database failed'),
  expiresAt: T0 + 60_000,
  orInbox,
});

export function leaveContract(name: string, make: () => Promise<GatewayStore>): void {
  describe(`${name}: a call whose waiter leaves is never left behind`, () => {
    let store: GatewayStore;
    beforeEach(async () => {
      store = await make();
    });
    afterEach(async () => {
      await store.close();
    });

    it('moves a waiting call to pending with the reason, and its later result to the inbox', async () => {
      await store.createCall(newCall('w1'));
      await store.openCall('w1', 'waiting', T0 + 60_000, T0);
      expect(await store.releaseWaiter('w1', T0 + 5, leaving('w1', true))).toEqual({ outcome: 'released' });
      expect(await store.getCall('w1')).toMatchObject({
        status: 'pending',
        result: { error: { code: 'EXECUTION_FAILED' } },
      });
      expect(await store.resolveCall('w1', 'run-1', { result: 7 }, T0 + 6)).toMatchObject({
        ok: true,
        previous: 'pending',
        inbox: { callId: 'w1' },
      });
    });

    it('moves a call that never opened (the database failed first) to pending with an expiry', async () => {
      await store.createCall(newCall('r1'));
      expect(await store.releaseWaiter('r1', T0 + 5, leaving('r1', true))).toEqual({ outcome: 'released' });
      expect(await store.getCall('r1')).toMatchObject({ status: 'pending', expiresAt: T0 + 60_000 });
      expect((await store.expireCalls(T0 + 60_000)).map((c) => c.callId)).toEqual(['r1']);
    });

    it('hands a result that came first to the inbox once when the waiter cannot, and keeps it when it can', async () => {
      for (const id of ['a', 'b']) {
        await store.createCall(newCall(id));
        await store.openCall(id, 'waiting', T0 + 60_000, T0);
        await store.resolveCall(id, 'run-1', { result: id }, T0 + 1);
      }
      expect(await store.releaseWaiter('a', T0 + 2, leaving('a', true))).toMatchObject({
        outcome: 'resolved',
        inbox: { callId: 'a', result: 'a' },
      });
      expect(await store.releaseWaiter('a', T0 + 3, leaving('a', true))).toEqual({ outcome: 'resolved' });
      // The control: a waiter that can still hand the result over keeps it out of the inbox.
      expect(await store.releaseWaiter('b', T0 + 2, leaving('b', false))).toEqual({ outcome: 'resolved' });
      expect(
        (await store.listInbox('agent-a', { limit: 10 })).map((m) => (m.kind === 'tool_result' ? m.callId : m.kind)),
      ).toEqual(['a']);
    });

    it('never reports "inline" a result for a waiting call nobody waits for', async () => {
      for (const id of ['gone', 'here']) {
        await store.createCall(newCall(id));
        await store.openCall(id, 'waiting', T0 + 60_000, T0);
      }
      const nobody = await store.resolveCall('gone', 'run-1', { result: 1 }, T0 + 1, (id) => id === 'here');
      expect(nobody).toMatchObject({ ok: true, previous: 'pending', inbox: { callId: 'gone' } });
      expect(await store.resolveCall('here', 'run-1', { result: 2 }, T0 + 1, (id) => id === 'here')).toMatchObject({
        ok: true,
        previous: 'waiting',
      });
    });

    it('lets a retry with the same callId take up a pending or interrupted call, and nothing else', async () => {
      await store.createCall(newCall('p1'));
      await store.openCall('p1', 'pending', T0 + 60_000, T0);
      expect(await store.retakeCall(newCall('p1', { input: { q: 'other' } }))).toBe(false);
      expect(await store.retakeCall(newCall('p1', { agentId: 'agent-b' }))).toBe(false);
      expect(await store.retakeCall(newCall('p1', { createdAt: T0 + 9 }))).toBe(true);
      expect(await store.getCall('p1')).toMatchObject({ status: 'running' });
      expect(await store.openCall('p1', 'waiting', T0 + 70_000, T0 + 9)).toBe(true);
      await store.createCall(newCall('cut'));
      await store.recover(T0 + 10);
      expect(await store.retakeCall(newCall('cut'))).toBe(true);
      await store.resolveCall('p1', 'run-1', { result: 1 }, T0 + 11);
      expect(await store.retakeCall(newCall('p1'))).toBe(false);
    });
  });
}
