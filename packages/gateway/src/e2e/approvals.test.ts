// Approval over HTTP: approve once, reject with a message for the model, "always" through the
// policy's remembered decisions kept in the store, and an approver built on the client SDK.
import type { ToolResult } from '@toolbelt/core';
import { GatewayError, type GatewayClient } from '@toolbelt/client';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway, until, type Harness } from '../__fixtures__/harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

/** Starts a call that needs approval and resolves once the gateway is waiting for the decision. */
async function askedCall(
  c: GatewayClient,
  callId: string,
  note = 'n',
  agentId = 'agent-a',
): Promise<{ result: Promise<ToolResult> }> {
  const result = c.call('run-1', 'write_note', { note }, { callId, agentId });
  await until(
    () => c.getCall(callId).catch(() => undefined),
    (x) => x?.status === 'awaiting_approval',
    `${callId} to await approval`,
  );
  return { result };
}

describe('approvals over HTTP', () => {
  it('runs a call once it is approved, and asks again for the next one', async () => {
    h = await startGateway();
    const c = h.client();
    const { result: pending } = await askedCall(c, 'a-1');
    const call = await c.getCall('a-1');
    expect(call.approval).toMatchObject({
      tool: 'write_note',
      effect: 'write',
      input: { note: 'n' },
      runId: 'run-1',
      agentId: 'agent-a',
    });
    expect(await c.approve('a-1')).toMatchObject({
      callId: 'a-1',
      status: 'running',
      decision: { outcome: 'approve', scope: 'once', by: 'local' },
    });
    expect(await pending).toMatchObject({
      status: 'success',
      approvedBy: 'user',
      content: [{ type: 'text', text: 'wrote n' }],
    });
    expect((await c.getCall('a-1')).status).toBe('success');
    const { result: second } = await askedCall(c, 'a-2');
    await c.reject('a-2');
    expect((await second).status).toBe('rejected');
  });

  it("shows whoever approves the agent's context for the call; over 2,000 characters it is refused", async () => {
    h = await startGateway();
    const c = h.client();
    const pending = c.call(
      'run-1',
      'write_note',
      { note: 'n' },
      { callId: 'ctx-1', context: 'Fixing the authentication bug' },
    );
    await until(
      () => c.getCall('ctx-1').catch(() => undefined),
      (x) => x?.status === 'awaiting_approval',
      'ctx-1 to await approval',
    );
    expect((await c.getCall('ctx-1')).approval?.context).toBe('Fixing the authentication bug');
    const [event] = await h.store.eventsAfter(0, { types: ['approval.requested'] }, 10);
    expect(event.event).toMatchObject({ request: { context: 'Fixing the authentication bug' } });
    await c.approve('ctx-1');
    expect((await pending).status).toBe('success');
    const tooLong = await c.call('run-1', 'write_note', { note: 'n' }, { context: 'x'.repeat(2001) }).then(
      () => undefined,
      (e: unknown) => e as GatewayError,
    );
    expect(tooLong?.status).toBe(400);
    expect(tooLong?.message).toContain('context');
  });

  it('gives the model the message of a rejection', async () => {
    h = await startGateway();
    const c = h.client();
    const { result: pending } = await askedCall(c, 'r-1');
    await c.reject('r-1', 'wrong file; write to notes/today.md instead');
    const r = await pending;
    expect(r.status).toBe('rejected');
    expect(r.rejection).toEqual({
      reason: 'The user rejected this write_note call',
      userMessage: 'wrong file; write to notes/today.md instead',
    });
    expect(r.content[0]).toMatchObject({
      type: 'text',
      text: expect.stringContaining('write to notes/today.md instead'),
    });
    expect(await c.getCall('r-1')).toMatchObject({ status: 'rejected', decision: { outcome: 'reject' } });
  });

  it('keeps "always" in the store for the agent: its later calls run without asking, also after a restart; another agent\'s are asked', async () => {
    h = await startGateway();
    const c = h.client();
    const { result: pending } = await askedCall(c, 'al-1');
    await c.approve('al-1', 'always');
    expect((await pending).status).toBe('success');
    expect(await c.call('run-1', 'write_note', { note: 'again' }, { sessionId: 'another' })).toMatchObject({
      status: 'success',
      approvedBy: 'remembered',
    });
    expect(await h.store.loadRemembered()).toMatchObject([
      { scope: 'always', agentId: 'agent-a', target: { kind: 'tool', tool: 'write_note' } },
    ]);
    const { result: other } = await askedCall(c, 'al-b', 'b', 'agent-b');
    await c.reject('al-b');
    expect((await other).status).toBe('rejected');

    await h.stop();
    h = await startGateway({ dir: h.dir });
    expect(await h.client().call('run-2', 'write_note', { note: 'after restart' })).toMatchObject({
      status: 'success',
      approvedBy: 'remembered',
    });
  });

  it('keeps "session" for the calling agent\'s session only', async () => {
    h = await startGateway();
    const c = h.client();
    const { result: pending } = await askedCall(c, 's-1');
    await c.approve('s-1', 'session');
    await pending;
    expect(await c.call('run-1', 'write_note', { note: 'x' })).toMatchObject({
      status: 'success',
      approvedBy: 'remembered',
    });
    const { result: other } = await askedCall(c, 's-2', 'y', 'agent-b');
    await c.reject('s-2');
    expect((await other).status).toBe('rejected');
  });

  it('takes one decision per call: a second one, or one for a call not awaiting approval, is refused', async () => {
    h = await startGateway();
    const c = h.client();
    const { result: pending } = await askedCall(c, 'd-1');
    await c.approve('d-1');
    await pending;
    const again = await c.reject('d-1', 'too late').catch((e: GatewayError) => e);
    expect(again).toMatchObject({ status: 409, code: 'CONFLICT' });
    expect((again as GatewayError).message).toContain('is not awaiting approval');
    expect(await c.approve('no-such-call').catch((e: GatewayError) => e.status)).toBe(404);
    const read = await c.call('run-1', 'echo', { text: 'hi' });
    expect(await c.approve(read.callId).catch((e: GatewayError) => e.status)).toBe(409);
    expect((await c.getCall('d-1')).decision).toMatchObject({ outcome: 'approve' });
  });

  it('serves an approver written with the client SDK, which sees the request and its preview data', async () => {
    h = await startGateway();
    const seen: string[] = [];
    const approver = h.client().approveWith((req) => {
      seen.push(`${req.tool}:${(req.input as { note: string }).note}`);
      return (req.input as { note: string }).note.startsWith('ok')
        ? { approve: true }
        : { approve: false, message: 'notes must start with ok' };
    });
    await approver.ready;
    try {
      const c = h.client();
      const [good, bad] = await Promise.all([
        c.call('run-1', 'write_note', { note: 'ok then' }),
        c.call('run-1', 'write_note', { note: 'nope' }),
      ]);
      expect(good.status).toBe('success');
      expect(bad).toMatchObject({ status: 'rejected', rejection: { userMessage: 'notes must start with ok' } });
      expect(seen.sort()).toEqual(['write_note:nope', 'write_note:ok then']);
    } finally {
      await approver.stop();
    }
  });

  it('picks up requests that were already waiting when the approver started', async () => {
    h = await startGateway();
    const c = h.client();
    const { result: pending } = await askedCall(c, 'late-approver');
    const approver = h.client().approveWith(() => ({ approve: true }));
    try {
      expect((await pending).status).toBe('success');
    } finally {
      await approver.stop();
    }
  });
});
