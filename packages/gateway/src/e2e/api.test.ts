// The rest of the API surface: tool listings in provider formats, call listing, the OpenAPI file,
// metrics and the execution log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool } from '@toolbelt/core';
import { OPENAPI } from '../openapi.js';
import { echoTool, startGateway, until, type Harness } from '../__fixtures__/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startGateway();
});
afterAll(() => h.cleanup());

describe('the API surface', () => {
  it('lists tools in each provider format', async () => {
    const c = h.client();
    expect((await c.toolDefinitions('openai')).find((t) => t.function.name === 'echo')).toMatchObject({
      type: 'function',
      function: { parameters: { required: ['text'] } },
    });
    expect((await c.toolDefinitions('openai-responses')).find((t) => t.name === 'echo')).toMatchObject({
      type: 'function',
      strict: false,
    });
    expect((await c.toolDefinitions('anthropic')).find((t) => t.name === 'echo')).toHaveProperty('input_schema');
    expect((await c.toolDefinitions('gemini')).find((t) => t.name === 'echo')?.parametersJsonSchema).toMatchObject({
      required: ['text'],
    });
    expect((await c.toolDefinitions('mcp')).find((t) => t.name === 'echo')).toMatchObject({
      annotations: { readOnlyHint: true },
    });
  });

  it('lists a tool judged per call by its usual effect, marked perCall', async () => {
    const peek = defineTool({
      name: 'peek',
      description: 'Reads a file, or runs it when asked to.',
      input: { type: 'object', properties: { run: { type: 'boolean' } } },
      effect: (input: { run?: boolean }) => (input.run ? 'execute' : 'read'),
      usualEffect: 'read',
      execute: () => 'ok',
    });
    const g = await startGateway({ tools: [echoTool, peek] });
    try {
      const listed = (await (await fetch(`${g.url}/api/tools`)).json()) as {
        tools: { name: string; effect: string; perCall: boolean }[];
      };
      expect(listed.tools.find((t) => t.name === 'peek')).toMatchObject({ effect: 'read', perCall: true });
      expect(listed.tools.find((t) => t.name === 'echo')).toMatchObject({ effect: 'read', perCall: false });
    } finally {
      await g.cleanup();
    }
  });

  it('refuses a callId that was already used, and leaves the first call alone', async () => {
    const c = h.client();
    await c.call('run-1', 'echo', { text: 'one' }, { callId: 'dup-1' });
    const again = await c.call('run-1', 'echo', { text: 'two' }, { callId: 'dup-1' }).catch((e) => e);
    expect(again).toMatchObject({ status: 409, code: 'CONFLICT' });
    expect((await c.getCall('dup-1')).input).toEqual({ text: 'one' });
  });

  it('lists calls by run, agent, status and tool, page by page', async () => {
    const c = h.client();
    for (let i = 0; i < 5; i++)
      await c.call('run-list', 'echo', { text: `${i}` }, { agentId: i % 2 ? 'odd' : 'even', callId: `list-${i}` });
    const all = await c.calls({ runId: 'run-list' });
    expect(all.calls.map((x) => x.callId)).toEqual(['list-4', 'list-3', 'list-2', 'list-1', 'list-0']);
    expect((await c.calls({ runId: 'run-list', agentId: 'odd' })).calls.map((x) => x.callId)).toEqual([
      'list-3',
      'list-1',
    ]);
    expect((await c.calls({ runId: 'run-list', status: 'success', tool: 'echo' })).calls).toHaveLength(5);
    expect((await c.calls({ runId: 'run-list', status: ['pending', 'waiting'] })).calls).toHaveLength(0);
    const page1 = await c.calls({ runId: 'run-list', limit: 2 });
    const page2 = await c.calls({ runId: 'run-list', limit: 2, before: page1.nextBefore! });
    const page3 = await c.calls({ runId: 'run-list', limit: 2, before: page2.nextBefore! });
    expect([...page1.calls, ...page2.calls, ...page3.calls].map((x) => x.callId)).toEqual([
      'list-4',
      'list-3',
      'list-2',
      'list-1',
      'list-0',
    ]);
    expect(page3.nextBefore).toBeUndefined();
  });

  it('describes every route in the OpenAPI file it serves', async () => {
    const served = (await (await fetch(`${h.url}/api/openapi.json`)).json()) as { openapi: string };
    expect(served.openapi).toBe('3.1.0');
    const documented = new Set(
      Object.entries(OPENAPI.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`)),
    );
    const routes = h.gw.app.routes
      .filter((r) => r.method !== 'ALL')
      .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
    expect(routes.length).toBeGreaterThan(10);
    for (const r of routes) expect(documented, r).toContain(r);
    expect(documented.size).toBe(new Set(routes).size);
  });

  it('exposes Prometheus metrics of tools, calls, HTTP and streams', async () => {
    await h.client().call('run-m', 'echo', { text: 'm' });
    const text = await (await fetch(`${h.url}/metrics`)).text();
    expect(text).toMatch(/^toolbelt_tool_calls_total\{tool="echo",status="success"\} [1-9]\d*$/m);
    expect(text).toMatch(/^toolbelt_tool_call_duration_milliseconds_count\{tool="echo"\} [1-9]\d*$/m);
    expect(text).toMatch(/^toolbelt_gateway_calls\{status="success"\} [1-9]\d*$/m);
    expect(text).toMatch(
      /^toolbelt_gateway_http_requests_total\{method="POST",route="\/api\/runs\/:runId\/tool-calls",code="200"\} [1-9]\d*$/m,
    );
    expect(text).toContain('# TYPE toolbelt_gateway_sse_clients gauge');
  });

  it('keeps the execution log in the store, readable over HTTP', async () => {
    const r = await h.client().call('run-log', 'echo', { text: 'logged' }, { agentId: 'logger' });
    const read = async () =>
      ((await (await fetch(`${h.url}/api/executions?runId=run-log`)).json()) as { entries: unknown[] }).entries;
    const entries = await until(read, (e) => e.length > 0, 'the log entry');
    expect(entries).toMatchObject([
      {
        callId: r.callId,
        tool: 'echo',
        status: 'success',
        params: { text: 'logged' },
        agentId: 'logger',
        runId: 'run-log',
        approvedBy: 'auto',
      },
    ]);
  });
});
