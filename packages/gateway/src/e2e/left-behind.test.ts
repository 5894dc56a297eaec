// No call is left behind: however a wait for an external result ends (the time is up, the database
// fails, the gateway shuts down), the call ends pending, its late result reaches the inbox, and a
// retry with the same callId takes the call up again instead of a 409. Real HTTP, a real SQLite file,
// a real lock held by another connection.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeclaredTool } from '../config.js';
import { startGateway, until, type Harness } from '../__fixtures__/harness.js';
import { openSqliteStore } from '../store/sqlite/index.js';

const lookup = (timeout: number): DeclaredTool => ({
  name: 'lookup',
  description: 'Answered by an external executor.',
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  executionType: 'external',
  effect: 'read',
  visible: false,
  timeout,
});

let h: Harness;
afterEach(async () => h?.cleanup());

const call = (callId: string, q = 'x') =>
  fetch(`${h.url}/api/runs/r1/tool-calls`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agentId: 'agent-a', name: 'lookup', callId, input: { q } }),
  });
const submit = (callId: string, result: unknown) =>
  fetch(`${h.url}/api/runs/r1/tool-results`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ callId, result }),
  });
const statusOf = async (callId: string) => (await h.store.getCall(callId))?.status;

/** A second connection holding the write lock; taken between the gateway's commits (never waiting on this event loop). */
async function lockWrites(file: string): Promise<Database.Database> {
  const other = new Database(file, { timeout: 0 });
  for (;;) {
    try {
      other.exec('BEGIN IMMEDIATE');
      return other;
    } catch {
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}

describe('a waiting call is never left behind', () => {
  it('ends pending when the database fails under the wait; the agent gets 503 and the late result reaches the inbox', async () => {
    h = await startGateway({ config: { tools: [lookup(300)] }, mode: 'yolo' });
    const answer = call('c1');
    await until(
      () => statusOf('c1'),
      (s) => s === 'waiting',
      'the call to wait',
    );
    // Another connection to the file holds the write lock, so the gateway cannot record the timeout.
    const other = await lockWrites(h.db);
    const res = await answer;
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await res.json()).toMatchObject({
      error: { code: 'UNAVAILABLE', message: expect.stringMatching(/database/) },
    });
    // The control: while the lock is held the call is still 'waiting', nobody waiting for it.
    expect(
      (other.prepare('SELECT status FROM tool_calls WHERE call_id = ?').get('c1') as { status: string }).status,
    ).toBe('waiting');
    other.exec('ROLLBACK');
    other.close();
    await until(
      () => statusOf('c1'),
      (s) => s === 'pending',
      'the owed release once the lock is gone',
      5000,
    );
    const delivered = await submit('c1', { found: 1 });
    expect(await delivered.json()).toMatchObject({ delivered: 'inbox' });
    expect(await h.store.listInbox('agent-a', { limit: 10 })).toMatchObject([{ callId: 'c1', result: { found: 1 } }]);
  });

  it('lets a retry with the same callId wait again for a call that timed out, and refuses a different call under it', async () => {
    h = await startGateway({ config: { tools: [lookup(150)] }, mode: 'yolo' });
    const first = (await (await call('c2')).json()) as { error?: { code: string } };
    expect(first.error?.code).toBe('TIMEOUT');
    expect(await statusOf('c2')).toBe('pending');
    expect((await call('c2', 'something else')).status).toBe(409);
    const retry = call('c2');
    await until(
      () => statusOf('c2'),
      (s) => s === 'waiting',
      'the retry to wait',
    );
    expect(await (await submit('c2', 'late')).json()).toMatchObject({ delivered: 'inline' });
    expect(await (await retry).json()).toMatchObject({ status: 'success', structured: 'late' });
    expect(await h.store.listInbox('agent-a', { limit: 10 })).toEqual([]);
  });

  it('leaves a call pending when the gateway shuts down under it, and its result reaches the inbox after the restart', async () => {
    h = await startGateway({ config: { tools: [lookup(60_000)] }, mode: 'yolo' });
    const answer = call('c3').catch(() => undefined);
    await until(
      () => statusOf('c3'),
      (s) => s === 'waiting',
      'the call to wait',
    );
    await h.stop();
    await answer;
    const after = openSqliteStore(h.db);
    expect((await after.getCall('c3'))?.status).toBe('pending');
    await after.close();
    h = await startGateway({ config: { tools: [lookup(60_000)] }, mode: 'yolo', dir: h.dir });
    expect(await (await submit('c3', 7)).json()).toMatchObject({ delivered: 'inbox' });
    expect(await h.store.listInbox('agent-a', { limit: 10 })).toMatchObject([{ callId: 'c3', result: 7 }]);
  });

  it('hands a result that arrived while its agent was cut off to the retry with the same callId, once; one in the inbox is not repeated', async () => {
    h = await startGateway({ config: { tools: [lookup(60_000)] }, mode: 'yolo' });
    // As a crash leaves it: the call was waiting, its result was taken "inline", and nobody answered the agent.
    const record = {
      runId: 'r1',
      agentId: 'agent-a',
      sessionId: 'agent-a',
      tool: 'lookup',
      input: { q: 'x' },
      visible: false,
      createdAt: Date.now(),
    };
    for (const callId of ['cut', 'boxed']) {
      await h.store.createCall({ ...record, callId });
      await h.store.openCall(callId, callId === 'cut' ? 'waiting' : 'pending', Date.now() + 60_000, Date.now());
      await h.store.resolveCall(callId, 'r1', { result: { answer: callId } }, Date.now());
    }
    expect(await (await call('cut')).json()).toMatchObject({ status: 'success', structured: { answer: 'cut' } });
    // The control: a result that went to the inbox is not handed out a second time.
    expect((await call('boxed')).status).toBe(409);
  });
});
