// ToolServer driven by the official SDK Client: listing, calling, progress, cancellation,
// list_changed, and approval by elicitation (or an error saying how to allow the call).
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, Executor, MemoryLogSink, Policy, ToolRegistry, type Mode } from '@toolbelt/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
  type ElicitResult,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { ToolServer } from './server.js';

let aborted = false;

function tools() {
  return [
    defineTool({
      name: 'greet',
      title: 'Say hello',
      description: 'Says hello.',
      input: z.object({ name: z.string() }),
      effect: 'read',
      execute: ({ name }) => `hello ${name}`,
    }),
    defineTool({
      name: 'weather',
      description: 'Weather as data.',
      input: z.object({ city: z.string() }),
      output: z.object({ temp: z.number(), city: z.string() }),
      effect: 'read',
      execute: ({ city }) => ({ structured: { temp: 21, city } }),
    }),
    defineTool({
      name: 'weather_untyped',
      description: 'Weather as data, with no output schema.',
      input: z.object({ city: z.string() }),
      effect: 'read',
      execute: ({ city }) => ({ structured: { temp: 21, city } }),
    }),
    defineTool({
      name: 'save',
      description: 'Writes something.',
      input: z.object({ text: z.string() }),
      effect: 'write',
      execute: ({ text }) => `saved ${text}`,
    }),
    defineTool({
      name: 'boom',
      description: 'Fails.',
      input: z.object({}),
      effect: 'read',
      execute: () => {
        throw new Error('it broke');
      },
    }),
    defineTool({
      name: 'steps',
      description: 'Reports progress and output.',
      input: z.object({}),
      effect: 'read',
      async execute(_i, ctx) {
        ctx.emit({ type: 'progress', progress: 1, total: 3, message: 'one' });
        ctx.emit({ type: 'progress', progress: 2, total: 3, message: 'two' });
        ctx.emit({ type: 'progress', progress: 3, total: 3, message: 'three' });
        await new Promise((r) => setTimeout(r, 20));
        return 'done';
      },
    }),
    defineTool({
      name: 'chatty',
      description: 'Streams output lines.',
      input: z.object({}),
      effect: 'read',
      async execute(_i, ctx) {
        for (const line of ['a', 'b', 'c']) ctx.emit({ type: 'output', stream: 'stdout', chunk: line });
        await new Promise((r) => setTimeout(r, 20));
        return 'abc';
      },
    }),
    defineTool({
      name: 'wait',
      description: 'Waits until cancelled.',
      input: z.object({}),
      effect: 'read',
      execute: (_i, ctx) =>
        new Promise<string>((resolve) => {
          ctx.emit({ type: 'progress', progress: 1, message: 'waiting' });
          ctx.signal.addEventListener('abort', () => {
            aborted = true;
            resolve('stopped');
          });
        }),
    }),
  ];
}

interface Setup {
  client: Client;
  registry: ToolRegistry;
  executor: Executor;
  log: MemoryLogSink;
  server: ToolServer;
}

const open: Setup[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) {
    await s.client.close();
    await s.server.close();
  }
});

async function setup(opts: { mode?: Mode; elicit?: (message: string) => ElicitResult } = {}): Promise<Setup> {
  const registry = new ToolRegistry().registerAll(tools());
  const log = new MemoryLogSink();
  const executor = new Executor({ registry, policy: new Policy({ mode: opts.mode ?? 'safe' }), log });
  const server = new ToolServer({ executor });
  const client = new Client(
    { name: 'test', version: '1' },
    { capabilities: opts.elicit ? { elicitation: { form: {} } } : {} },
  );
  if (opts.elicit) {
    const answer = opts.elicit;
    client.setRequestHandler(ElicitRequestSchema, (req) => answer((req.params as { message: string }).message));
  }
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
  const s = { client, registry, executor, log, server };
  open.push(s);
  return s;
}

describe('ToolServer', () => {
  it('lists the registry with annotations from effects and both schemas', async () => {
    const { client } = await setup();
    const { tools: listed } = await client.listTools();
    expect(listed.map((t) => t.name).sort()).toEqual([
      'boom',
      'chatty',
      'greet',
      'save',
      'steps',
      'wait',
      'weather',
      'weather_untyped',
    ]);
    const greet = listed.find((t) => t.name === 'greet')!;
    expect(greet).toMatchObject({
      title: 'Say hello',
      description: 'Says hello.',
      annotations: { readOnlyHint: true, openWorldHint: false },
    });
    expect(greet.inputSchema).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
    });
    expect(listed.find((t) => t.name === 'save')!.annotations).toMatchObject({ destructiveHint: false });
    expect(listed.find((t) => t.name === 'weather')!.outputSchema).toMatchObject({
      type: 'object',
      properties: { temp: { type: 'number' } },
    });
  });

  it('runs a call through the executor, with the log and metrics seeing it', async () => {
    const { client, log, executor } = await setup();
    const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
    expect(result._meta?.['toolbelt/call']).toMatchObject({ status: 'success', approvedBy: 'auto' });
    expect(log.entries.map((e) => e.tool)).toEqual(['greet']);
    expect(executor.metrics.snapshot().find((m) => m.tool === 'greet')).toMatchObject({ calls: 1 });
  });

  it('returns structuredContent with a text fallback', async () => {
    const { client } = await setup();
    const result = await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });
    expect(result.structuredContent).toEqual({ temp: 21, city: 'Oslo' });
    expect(JSON.parse((result.content as { text: string }[])[0].text)).toEqual({ temp: 21, city: 'Oslo' });
  });

  it('sends a payload once, as text, when the tool declares no output schema', async () => {
    const { client } = await setup();
    const result = await client.callTool({ name: 'weather_untyped', arguments: { city: 'Oslo' } });
    expect(result.structuredContent).toBeUndefined();
    expect(JSON.parse((result.content as { text: string }[])[0].text)).toEqual({ temp: 21, city: 'Oslo' });
  });

  it('returns errors, bad input and unknown tools as isError results a model can act on', async () => {
    const { client } = await setup();
    const boom = await client.callTool({ name: 'boom', arguments: {} });
    expect(boom.isError).toBe(true);
    expect((boom.content as { text: string }[])[0].text).toBe('boom failed: it broke');
    const bad = await client.callTool({ name: 'greet', arguments: { name: 7 } });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0].text).toContain('`name` must be a string');
    const unknown = await client.callTool({ name: 'gret', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect((unknown.content as { text: string }[])[0].text).toContain('greet');
  });

  it('sends progress notifications for progress events, growing and with the total', async () => {
    const { client } = await setup();
    const seen: Progress[] = [];
    await client.callTool({ name: 'steps', arguments: {} }, undefined, { onprogress: (p) => void seen.push(p) });
    expect(seen).toEqual([
      { progress: 1, total: 3, message: 'one' },
      { progress: 2, total: 3, message: 'two' },
      { progress: 3, total: 3, message: 'three' },
    ]);
  });

  it('sends output chunks as progress messages with a growing count', async () => {
    const { client } = await setup();
    const seen: Progress[] = [];
    await client.callTool({ name: 'chatty', arguments: {} }, undefined, { onprogress: (p) => void seen.push(p) });
    expect(seen).toEqual([
      { progress: 1, message: 'a' },
      { progress: 2, message: 'b' },
      { progress: 3, message: 'c' },
    ]);
  });

  it('cancels the tool when the client cancels the request', async () => {
    aborted = false;
    const { client } = await setup();
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait', arguments: {} }, undefined, {
      signal: controller.signal,
      onprogress: () => controller.abort('user pressed stop'),
    });
    await expect(call).rejects.toThrow(/user pressed stop|abort/i);
    for (let i = 0; i < 100 && !aborted; i++) await new Promise((r) => setTimeout(r, 10));
    expect(aborted).toBe(true);
  });

  it('tells the client when the registry changes', async () => {
    const { client, registry } = await setup();
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    registry.register(
      defineTool({
        name: 'later',
        description: 'Arrives later.',
        input: z.object({}),
        effect: 'read',
        execute: () => 'hi',
      }),
    );
    await changed;
    expect((await client.listTools()).tools.some((t) => t.name === 'later')).toBe(true);
  });
});

describe('ToolServer approvals', () => {
  it('asks through elicitation and runs the call when the user approves once', async () => {
    const asked: string[] = [];
    const { client } = await setup({
      elicit: (m) => (asked.push(m), { action: 'accept', content: { decision: 'approve' } }),
    });
    const result = await client.callTool({ name: 'save', arguments: { text: 'x' } });
    expect(result.isError).toBeFalsy();
    expect((result.content as { text: string }[])[0].text).toBe('saved x');
    expect(result._meta?.['toolbelt/call']).toMatchObject({ approvedBy: 'user' });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('Allow save? Effect: write.');
    expect(asked[0]).toContain('"text": "x"');
    await client.callTool({ name: 'save', arguments: { text: 'y' } });
    expect(asked).toHaveLength(2);
  });

  it('remembers "always" so the next call is not asked about', async () => {
    let asked = 0;
    const { client } = await setup({ elicit: () => (asked++, { action: 'accept', content: { decision: 'always' } }) });
    await client.callTool({ name: 'save', arguments: { text: 'x' } });
    const second = await client.callTool({ name: 'save', arguments: { text: 'y' } });
    expect(asked).toBe(1);
    expect(second._meta?.['toolbelt/call']).toMatchObject({ approvedBy: 'remembered' });
  });

  it('does not run a call the user rejects, and passes their message to the model', async () => {
    const { client, log } = await setup({
      elicit: () => ({ action: 'accept', content: { decision: 'reject', message: 'use the draft folder' } }),
    });
    const result = await client.callTool({ name: 'save', arguments: { text: 'x' } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0].text).toBe(
      'The user rejected this save call. The user said: use the draft folder',
    );
    expect(log.entries[0].status).toBe('rejected');
  });

  it('asks a destructive call to be confirmed too: approved without the tick, it does not run', async () => {
    const answers: ElicitResult[] = [
      { action: 'accept', content: { decision: 'approve' } },
      { action: 'accept', content: { decision: 'approve', confirm: true } },
    ];
    const asked: string[] = [];
    const { client, registry } = await setup({ elicit: (m) => (asked.push(m), answers.shift()!) });
    let wiped = 0;
    registry.register(
      defineTool({
        name: 'wipe',
        description: 'Wipes the cache.',
        input: z.object({}),
        effect: 'destructive',
        execute: () => `wiped ${++wiped}`,
      }),
    );
    const unconfirmed = await client.callTool({ name: 'wipe', arguments: {} });
    expect(unconfirmed.isError).toBe(true);
    expect((unconfirmed.content as { text: string }[])[0].text).toContain('did not confirm this destructive call');
    expect(wiped).toBe(0);
    const confirmed = await client.callTool({ name: 'wipe', arguments: {} });
    expect((confirmed.content as { text: string }[])[0].text).toBe('wiped 1');
    expect(asked[0]).toContain('This wipe call is destructive. To run it, approve and tick the confirmation.');
  });

  it('treats a declined or dismissed elicitation as a rejection', async () => {
    const { client } = await setup({ elicit: () => ({ action: 'cancel' }) });
    const result = await client.callTool({ name: 'save', arguments: { text: 'x' } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0].text).toContain('dismissed the approval request');
  });

  it('without elicitation, lets the policy decide and says how to allow a call that needs approval', async () => {
    const { client, log } = await setup();
    const allowed = await client.callTool({ name: 'greet', arguments: { name: 'x' } });
    expect(allowed.isError).toBeFalsy();
    const result = await client.callTool({ name: 'save', arguments: { text: 'x' } });
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0].text;
    expect(text).toContain('save was not run: it needs approval (mode "safe" says ask for write calls)');
    expect(text).toContain('this MCP client cannot ask the user');
    expect(text).toContain('{"rules":[{"tool":"save","action":"allow"}]}');
    expect(text).toContain('--mode auto-edit');
    expect(result._meta?.['toolbelt/call']).toMatchObject({ code: 'APPROVAL_REQUIRED' });
    expect(log.entries.at(-1)?.status).toBe('rejected');
  });
});
