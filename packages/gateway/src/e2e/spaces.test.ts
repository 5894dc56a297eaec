// Spaces end to end over real HTTP with the client SDK: the gateway specification's worked examples (the async
// confirmAction booking, the inline fetchExternalData with a 10 s timeout and a late result, the
// internal showChart), the "not in a space" error, two agents in one space, and one space's stream.
import { defineTool, type ToolResult } from '@toolbelt/core';
import type { DeclaredTool } from '../config.js';
import type { GatewayToolSpec } from '../declared/visible.js';
import type { GatewayClient, InboxMessage, StreamedEvent } from '@toolbelt/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { echoTool, startGateway, type Harness } from '../__fixtures__/harness.js';

// `visible` is the gateway's field on a tool (declared/visible.ts), not core's.
const busySpec: GatewayToolSpec = {
  name: 'busy',
  description: 'Streams two lines of output.',
  input: { type: 'object', properties: {} },
  effect: 'read',
  visible: true,
  execute: (_input, ctx) => {
    ctx.emit({ type: 'output', stream: 'stdout', chunk: 'one\n' });
    ctx.emit({ type: 'output', stream: 'stdout', chunk: 'two\n' });
    return 'done';
  },
};
const busyTool = defineTool(busySpec);

const obj = (props: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties: props,
  required,
});
const tools: DeclaredTool[] = [
  {
    name: 'confirmAction',
    description: 'Ask the user to confirm.',
    inputSchema: obj({ question: { type: 'string' } }, ['question']),
    executionType: 'space',
    isAsync: true,
  },
  {
    name: 'fetchExternalData',
    description: 'Look up data.',
    inputSchema: obj({ query: { type: 'string' } }),
    executionType: 'external',
    visible: false,
    isAsync: false,
    timeout: 10_000,
    effect: 'read',
  },
  {
    name: 'askInline',
    description: 'Ask and wait.',
    inputSchema: { type: 'object' },
    executionType: 'space',
    timeout: 20_000,
  },
  {
    name: 'showChart',
    description: 'Show a chart.',
    inputSchema: { type: 'object' },
    executionType: 'internal',
    visible: true,
  },
  {
    name: 'noteInternal',
    description: 'Internal, invisible.',
    inputSchema: { type: 'object' },
    executionType: 'internal',
  },
];

let h: Harness;
let admin: GatewayClient;
beforeAll(async () => {
  h = await startGateway({ tools: [echoTool, busyTool], config: { tools } });
  admin = h.client();
  await admin.createSpace('Travel', 'travel');
  await admin.addMember('travel', 'husam', 'person');
  await admin.addMember('travel', 'planner', 'agent');
  await admin.addMember('travel', 'coder', 'agent');
});
afterAll(() => h.cleanup());

const textsOf = (ms: InboxMessage[]) => ms.map((m) => (m.kind === 'message' ? m.message.text : `result:${m.tool}`));
const json = (r: ToolResult) => r.structured as Record<string, any>;

async function cycle(c: GatewayClient, agentId: string): Promise<{ id: string; messages: InboxMessage[] }> {
  const a = await c.takeCycle(agentId, { waitMs: 5000 });
  if (a.cycleId === null) throw new Error(`no cycle for ${agentId}`);
  await c.finishCycle(agentId, a.cycleId);
  return { id: a.cycleId, messages: a.messages };
}

describe("the gateway specification's worked examples", () => {
  it('async confirmAction: pending at once, the person answers in the space, the result arrives in the next cycle', async () => {
    const planner = h.client({ agentId: 'planner' });
    await admin.postMessage('travel', 'husam', 'Book a hotel in Tokyo');
    const c15 = await cycle(planner, 'planner');
    expect(textsOf(c15.messages)).toEqual(['Book a hotel in Tokyo']);
    await planner.call('c15', 'enter_space', { spaceId: 'travel' });
    const r = await planner.call('c15', 'confirmAction', { question: 'Confirm booking?' });
    expect(r.status).toBe('pending');
    expect(json(r)).toEqual({ status: 'pending', pendingToolCallId: r.callId });
    const asked = (await admin.messages('travel')).messages.find((m) => m.callId === r.callId)!;
    expect(asked).toMatchObject({
      kind: 'tool_call',
      tool: 'confirmAction',
      status: 'requires_action',
      input: { question: 'Confirm booking?' },
    });
    expect(await admin.answer(asked, { confirmed: true })).toMatchObject({ delivered: 'inbox' });
    const c16 = await cycle(planner, 'planner');
    expect(c16.messages).toMatchObject([
      { kind: 'tool_result', callId: r.callId, tool: 'confirmAction', result: { confirmed: true } },
    ]);
    const settled = (await admin.messages('travel')).messages.find((m) => m.callId === r.callId);
    expect(settled).toMatchObject({ status: 'complete', result: { confirmed: true } });
    await planner.call('c16', 'leave_space', {});
  });

  it('inline fetchExternalData: a result within the 10 s timeout is returned inline; after it, the late result goes to the inbox once', async () => {
    const coder = h.client({ agentId: 'coder' });
    const stop = new AbortController();
    const worker = admin.onToolCall(
      'fetchExternalData',
      (input: { query: string }) => ({ source: 'pm-api', results: [input.query] }),
      {
        runId: 'fx-in',
        signal: stop.signal,
      },
    );
    await worker.ready;
    const inline = await coder.call('fx-in', 'fetchExternalData', { query: 'active projects' });
    stop.abort();
    expect(inline).toMatchObject({ status: 'success', structured: { source: 'pm-api', results: ['active projects'] } });
    expect((await coder.inbox('coder')).filter((m) => m.kind === 'tool_result')).toEqual([]);

    const late = await coder.call('fx-late', 'fetchExternalData', { query: 'late' });
    expect(late).toMatchObject({
      status: 'error',
      error: { code: 'TIMEOUT', message: expect.stringContaining('Tool timed out after 10000ms') },
    });
    expect(await admin.submitResult('fx-late', late.callId, { source: 'pm-api', results: [] })).toMatchObject({
      delivered: 'inbox',
    });
    await expect(admin.submitResult('fx-late', late.callId, { again: true })).rejects.toMatchObject({ status: 409 });
    const c = await cycle(coder, 'coder');
    expect(c.messages.filter((m) => m.kind === 'tool_result')).toMatchObject([
      { callId: late.callId, result: { source: 'pm-api', results: [] } },
    ]);
  }, 20_000);

  it('internal showChart, visible: posted to the space as complete with its args; an invisible one posts nothing', async () => {
    const planner = h.client({ agentId: 'planner' });
    await planner.call('chart', 'enter_space', { spaceId: 'travel' });
    const before = (await admin.messages('travel')).total;
    const r = await planner.call('chart', 'showChart', { series: [1, 2, 3] });
    expect(json(r)).toEqual({ success: true, args: { series: [1, 2, 3] } });
    await planner.call('chart', 'noteInternal', { x: 1 });
    const after = await admin.messages('travel', { offset: before });
    expect(after.messages).toMatchObject([
      {
        kind: 'tool_call',
        tool: 'showChart',
        status: 'complete',
        result: { success: true, args: { series: [1, 2, 3] } },
      },
    ]);
    await planner.call('chart', 'leave_space', {});
  });
});

describe('visible tools and spaces', () => {
  it('a waiting space call gets the answer a person gives on the stream inline, and nothing in the inbox', async () => {
    await admin.createSpace('Inline', 'inline');
    await admin.addMember('inline', 'ida', 'person');
    await admin.addMember('inline', 'waiter', 'agent');
    const agent = h.client({ agentId: 'waiter' });
    await agent.call('w', 'enter_space', { spaceId: 'inline' });
    let ready!: () => void;
    const connected = new Promise<void>((r) => (ready = r));
    const person = (async () => {
      for await (const e of admin.spaceEvents('inline', { onReady: () => ready() })) {
        if (e.type === 'space.message' && e.message.status === 'requires_action')
          return admin.answer(e.message, { ok: 'yes' });
      }
    })();
    await connected;
    const r = await agent.call('w', 'askInline', { q: 'go?' });
    expect(r).toMatchObject({ status: 'success', structured: { ok: 'yes' } });
    expect(await person).toMatchObject({ delivered: 'inline' });
    expect(await agent.inbox('waiter')).toEqual([]);
    expect((await admin.messages('inline')).messages).toMatchObject([
      { tool: 'askInline', status: 'complete', result: { ok: 'yes' } },
    ]);
  });

  it('agent.cycles() yields each batch once, oldest first, and acknowledges it before the next', async () => {
    await admin.createSpace('Loop', 'loop');
    await admin.addMember('loop', 'lee', 'person');
    await admin.addMember('loop', 'looper', 'agent');
    const looper = h.client({ agentId: 'looper' });
    await admin.postMessage('loop', 'lee', 'one');
    await admin.postMessage('loop', 'lee', 'two');
    const stop = new AbortController();
    const seen: (string | undefined)[][] = [];
    for await (const c of looper.agent('looper').cycles({ waitMs: 2000, signal: stop.signal })) {
      seen.push(textsOf(c.messages));
      if (seen.length === 1) await admin.postMessage('loop', 'lee', 'three');
      else stop.abort();
    }
    expect(seen).toEqual([['one', 'two'], ['three']]);
    expect(await looper.inbox('looper')).toEqual([]);
  });

  it("refuses a visible call outside a space with the specification's text, and records nothing", async () => {
    const loner = h.client({ agentId: 'loner' });
    const r = await loner.call('run-x', 'confirmAction', { question: 'ok?' });
    expect(r).toMatchObject({
      status: 'error',
      error: { message: 'Tool "confirmAction" is visible but you are not in a space. Call enter_space first.' },
    });
    expect((await admin.calls({ agentId: 'loner' })).calls).toEqual([]);
  });

  it("a person's message reaches both agents; an agent's own message does not return to itself", async () => {
    await admin.createSpace('Pair', 'pair');
    for (const [id, kind] of [
      ['ana', 'person'],
      ['a1', 'agent'],
      ['a2', 'agent'],
    ] as const)
      await admin.addMember('pair', id, kind);
    const a1 = h.client({ agentId: 'a1' });
    expect((await admin.postMessage('pair', 'ana', 'hello both')).delivered.sort()).toEqual(['a1', 'a2']);
    await a1.call('r', 'enter_space', { spaceId: 'pair' });
    const sent = await a1.call('r', 'send_message', { text: 'from a1' });
    expect(json(sent)).toMatchObject({ spaceId: 'pair', delivered: ['a2'] });
    expect(textsOf((await cycle(a1, 'a1')).messages)).toEqual(['hello both']);
    expect(textsOf((await cycle(a1, 'a2')).messages)).toEqual(['hello both', 'from a1']);
    expect(await a1.takeCycle('a1', { waitMs: 0 })).toEqual({ cycleId: null, messages: [] });
  });

  it("streams one space's events: message, tool.started, tool.streaming, tool.done, tool.error", async () => {
    await admin.createSpace('Live', 'live');
    await admin.addMember('live', 'bob', 'person');
    await admin.addMember('live', 'streamer', 'agent');
    const agent = h.client({ agentId: 'streamer' });
    let ready!: () => void;
    const connected = new Promise<void>((r) => (ready = r));
    const got: StreamedEvent[] = [];
    const names: string[] = [];
    const reading = (async () => {
      for await (const e of admin.spaceEvents('live', { onReady: () => ready() })) {
        got.push(e);
        names.push(e.type === 'space.tool' ? `tool.${e.phase}` : e.type);
        if (e.type === 'space.tool' && e.phase === 'error') break;
      }
    })();
    await connected;
    await admin.postMessage('live', 'bob', 'go');
    await agent.call('s', 'enter_space', { spaceId: 'live' });
    await agent.call('s', 'busy', {});
    await agent.call('s', 'confirmAction', { wrong: 1 });
    await reading;
    expect(names).toEqual([
      'space.message',
      'tool.started',
      'tool.streaming',
      'tool.streaming',
      'tool.done',
      'tool.started',
      'tool.error',
    ]);
    expect(got.every((e) => 'spaceId' in e && e.spaceId === 'live')).toBe(true);
    expect(
      got.filter((e) => e.type === 'space.tool' && e.phase === 'streaming').map((e) => 'chunk' in e && e.chunk),
    ).toEqual(['one\n', 'two\n']);
  });
});
