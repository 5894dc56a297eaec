// GET /api/events: the core vocabulary and the gateway's own events, filtered, and resumed after a
// dropped connection with Last-Event-ID — nothing missed, nothing repeated.
import { defineTool } from '@toolbelt/core';
import type { DeclaredTool } from '../config.js';
import { GatewayClient, type StreamedEvent } from '@toolbelt/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { echoTool, noteTool, startGateway, until, type Harness } from '../__fixtures__/harness.js';
import { errorOf } from '../__fixtures__/answers.js';
import { startProxy, type Proxy } from '../__fixtures__/proxy.js';

const busyTool = defineTool({
  name: 'busy',
  description: 'Reports progress and output, and changes a file.',
  input: { type: 'object', properties: {} },
  effect: 'read',
  execute: (_input, ctx) => {
    ctx.emit({ type: 'progress', progress: 1, total: 2, message: 'half way' });
    ctx.emit({ type: 'output', stream: 'stdout', chunk: 'line\n' });
    ctx.emit({ type: 'file.changed', path: '/tmp/x', operation: 'write' });
    return 'done';
  },
});
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
    tools: [echoTool, noteTool, busyTool],
    config: { tools: [confirm] },
    heartbeatMs: 50,
    inSpace: ['agent-a'],
  });
});
afterAll(() => h.cleanup());

/** Reads events until `stop` says so. */
async function collect(
  it: AsyncGenerator<StreamedEvent>,
  stop: (e: StreamedEvent, all: StreamedEvent[]) => boolean,
): Promise<StreamedEvent[]> {
  const out: StreamedEvent[] = [];
  for await (const e of it) {
    out.push(e);
    if (stop(e, out)) break;
  }
  return out;
}

const resultOf = (callId: string) => (e: StreamedEvent) => e.type === 'tool.result' && e.callId === callId;

describe('the event stream', () => {
  it('carries every event of a call, approvals, pending calls, the inbox and registry changes', async () => {
    const c = h.client();
    let onReady!: () => void;
    const ready = new Promise<void>((r) => (onReady = r));
    const events = collect(c.events({ onReady: () => onReady() }), (e) => e.type === 'inbox.added');
    await ready;
    await c.call('run-ev', 'busy', {}, { callId: 'ev-busy' });
    const approver = c.approveWith(() => ({ approve: true }));
    await approver.ready;
    await c.call('run-ev', 'write_note', { note: 'n' }, { callId: 'ev-note' });
    await approver.stop();
    h.registry.register(
      defineTool({
        name: 'late_tool',
        description: 'Added later.',
        input: { type: 'object' },
        effect: 'read',
        execute: () => 'x',
      }),
    );
    const pending = await c.call('run-ev', 'confirmAction', {}, { callId: 'ev-confirm' });
    expect(pending.status).toBe('pending');
    await c.submitResult('run-ev', 'ev-confirm', { ok: true });
    const types = new Set((await events).map((e) => e.type));
    for (const t of [
      'agent.state',
      'tool.call',
      'tool.started',
      'tool.progress',
      'tool.output',
      'file.changed',
      'tool.result',
      'approval.requested',
      'approval.resolved',
      'registry.changed',
      'pending.created',
      'pending.resolved',
      'inbox.added',
    ]) {
      expect(types, t).toContain(t);
    }
    const all = await events;
    expect(all.find((e) => e.type === 'pending.created')).toMatchObject({
      callId: 'ev-confirm',
      mode: 'pending',
      executionType: 'space',
      visible: true,
      runId: 'run-ev',
      agentId: 'agent-a',
    });
    expect(all.find((e) => e.type === 'tool.progress')).toMatchObject({
      callId: 'ev-busy',
      progress: 1,
      total: 2,
      message: 'half way',
      runId: 'run-ev',
    });
  });

  it('resumes after a dropped connection with Last-Event-ID: nothing missed, nothing repeated', async () => {
    const c = h.client();
    const first: StreamedEvent[] = [];
    const controller = new AbortController();
    let ready!: () => void;
    const connected = new Promise<void>((r) => (ready = r));
    const reading = (async () => {
      for await (const e of c.events({
        runId: 'run-drop',
        reconnect: false,
        signal: controller.signal,
        onReady: () => ready(),
      })) {
        first.push(e);
        if (e.type === 'tool.result' && e.callId === 'drop-2') controller.abort();
      }
    })().catch(() => {});
    await connected;
    for (let i = 1; i <= 2; i++) await c.call('run-drop', 'echo', { text: `${i}` }, { callId: `drop-${i}` });
    await reading;
    // While disconnected:
    for (let i = 3; i <= 5; i++) await c.call('run-drop', 'echo', { text: `${i}` }, { callId: `drop-${i}` });
    const last = first[first.length - 1].id;
    const rest = await collect(c.events({ runId: 'run-drop', lastEventId: last }), resultOf('drop-5'));
    const ids = [...first, ...rest].map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    const stored = (await h.store.eventsAfter(first[0].id - 1, { runId: 'run-drop' }, 1000))
      .map((s) => s.id)
      .filter((id) => id <= rest[rest.length - 1].id);
    expect(ids).toEqual(stored);
    expect(rest[0].id).toBeGreaterThan(last);
  });

  it('reconnects by itself after the network drops the stream and still misses nothing', async () => {
    const proxy: Proxy = await startProxy(h.url);
    try {
      const c = new GatewayClient({ url: proxy.url, agentId: 'agent-a' });
      const direct = h.client();
      let readies = 0;
      const got: StreamedEvent[] = [];
      let cut = false;
      const reading = (async () => {
        for await (const e of c.events({ runId: 'run-net', onReady: () => readies++, maxBackoffMs: 50 })) {
          got.push(e);
          if (e.type === 'tool.result' && e.callId === 'net-2' && !cut) {
            cut = true;
            proxy.cut();
            for (let i = 3; i <= 6; i++) await direct.call('run-net', 'echo', { text: `${i}` }, { callId: `net-${i}` });
          }
          if (e.type === 'tool.result' && e.callId === 'net-6') break;
        }
      })();
      await until(
        () => readies,
        (n) => n >= 1,
        'the stream to connect',
      );
      for (let i = 1; i <= 2; i++) await direct.call('run-net', 'echo', { text: `${i}` }, { callId: `net-${i}` });
      await reading;
      expect(readies).toBeGreaterThanOrEqual(2);
      const ids = got.map((e) => e.id);
      const stored = (await h.store.eventsAfter(ids[0] - 1, { runId: 'run-net' }, 1000))
        .map((s) => s.id)
        .filter((id) => id <= ids[ids.length - 1]);
      expect(ids).toEqual(stored);
      expect(got.filter((e) => e.type === 'tool.result').map((e) => (e as { callId: string }).callId)).toEqual([
        'net-1',
        'net-2',
        'net-3',
        'net-4',
        'net-5',
        'net-6',
      ]);
    } finally {
      await proxy.close();
    }
  });

  it('filters by run and by agent', async () => {
    const c = h.client();
    await c.call('run-f1', 'echo', { text: 'a' }, { agentId: 'agent-f1' });
    await c.call('run-f2', 'echo', { text: 'b' }, { agentId: 'agent-f2' });
    await c.call('run-f2', 'echo', { text: 'c' }, { agentId: 'agent-f1', callId: 'f-last' });
    await h.gw.recorder.flush();
    const byAgent = await collect(c.events({ agentIds: ['agent-f1'], lastEventId: 0 }), resultOf('f-last'));
    expect(new Set(byAgent.map((e) => e.agentId))).toEqual(new Set(['agent-f1']));
    expect(byAgent.filter((e) => e.type === 'tool.result')).toHaveLength(2);
    const byRun = await collect(c.events({ runId: 'run-f2', lastEventId: 0 }), resultOf('f-last'));
    expect(new Set(byRun.map((e) => e.runId))).toEqual(new Set(['run-f2']));
    const byType = await collect(
      c.events({ types: ['tool.result'], runId: 'run-f2', lastEventId: 0 }),
      resultOf('f-last'),
    );
    expect(byType.map((e) => e.type)).toEqual(['tool.result', 'tool.result']);
  });

  it('refuses a malformed Last-Event-ID and unknown event types', async () => {
    const res = await fetch(`${h.url}/api/events`, { headers: { 'last-event-id': 'abc' } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toContain('Last-Event-ID must be an event id');
    const bad = await fetch(`${h.url}/api/events?types=tool.call,tool.exploded`);
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toContain('unknown event type tool.exploded');
  });

  it('treats a Last-Event-ID beyond the last stored event as a fresh start, not a gap to wait out', async () => {
    const c = h.client();
    let ready = -1;
    const got = collect(c.events({ lastEventId: 10_000_000, onReady: (id) => (ready = id) }), resultOf('future-1'));
    await until(
      () => ready,
      (id) => id >= 0,
      'the stream to be ready',
    );
    expect(ready).toBeLessThan(10_000_000);
    await c.call('run-future', 'echo', { text: 'x' }, { callId: 'future-1' });
    expect((await got).some((e) => e.type === 'tool.result')).toBe(true);
  });

  it('sends keep-alive comments on a quiet stream and a ready frame with the resume point', async () => {
    const res = await fetch(`${h.url}/api/events?runId=quiet`);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes(': keep-alive')) text += (await reader.read()).value;
    await reader.cancel();
    expect(text).toMatch(/id: \d+\nevent: ready\ndata: \{"lastEventId":\d+\}/);
  });
});
