// Every route of the table called for real, on a real gateway (127.0.0.1, an ephemeral port, SQLite),
// each answer checked against the route's answer schema in @toolbelt/protocol: the schemas the OpenAPI
// document is generated from say what the gateway really sends.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpManager } from '@toolbelt/mcp';
import {
  ROUTE_SCHEMAS,
  ROUTES,
  routeUrl,
  type RouteArgs,
  type RouteKey,
  type RouteSchemas,
  type RouteSpec,
} from '@toolbelt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../../../mcp/src/__fixtures__/servers.js';
import { echoTool, noteTool, startGateway, until, type Harness } from '../__fixtures__/harness.js';

let h: Harness;
let manager: McpManager;
let consoleDir: string;
const called = new Set<RouteKey>();

beforeAll(async () => {
  // A console of real files, so the page and an asset are served from disk.
  consoleDir = mkdtempSync(join(tmpdir(), 'toolbelt-console-'));
  mkdirSync(join(consoleDir, 'assets'));
  writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><script src="/assets/app-1.js"></script>');
  writeFileSync(join(consoleDir, 'assets', 'app-1.js'), 'console.log(1)');
  h = await startGateway({
    tools: [echoTool, noteTool],
    consoleDir,
    config: {
      tools: [
        {
          name: 'lookup',
          description: 'Looked up by an external executor; the result goes to the inbox.',
          inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
          executionType: 'external',
          isAsync: true,
          visible: false,
          effect: 'read',
        },
      ],
    },
  });
  manager = new McpManager({ servers: { fx: fixture() }, registry: h.registry });
  await manager.start();
});
afterAll(async () => {
  await manager?.close();
  await h?.cleanup();
  rmSync(consoleDir, { recursive: true, force: true });
});

/** Calls route `key` over HTTP and checks its status and its answer against the route's schema. */
async function send<K extends RouteKey>(key: K, args: RouteArgs<K>, signal?: AbortSignal): Promise<any> {
  const spec: RouteSpec = ROUTES[key];
  const res = await fetch(h.url + routeUrl(key, args), {
    method: spec.method,
    ...(args.body !== undefined
      ? { body: JSON.stringify(args.body), headers: { 'content-type': 'application/json' } }
      : {}),
    ...(signal ? { signal } : {}),
  });
  expect(res.status, `${key}: ${res.status}`).toBe(spec.status ?? 200);
  called.add(key);
  const type = res.headers.get('content-type') ?? '';
  const expected = { json: 'application/json', text: 'text/plain', 'event-stream': 'text/event-stream' };
  const answer = spec.answer ?? 'json';
  if (answer === 'event-stream') {
    expect(type).toContain(expected[answer]);
    await res.body?.cancel();
    return undefined;
  }
  if (answer !== 'json') {
    if (answer in expected) expect(type).toContain(expected[answer as 'text']);
    return res.text();
  }
  expect(type, key).toContain('application/json');
  const value: unknown = await res.json();
  const schema: RouteSchemas = ROUTE_SCHEMAS[key];
  const parsed = schema.answer!.safeParse(value);
  expect(parsed.success ? [] : parsed.error.issues, `${key} answered ${JSON.stringify(value)}`).toEqual([]);
  return value;
}

/** Sends `key` while a stream is read only to its headers. */
async function stream<K extends RouteKey>(key: K, args: RouteArgs<K>): Promise<void> {
  const ac = new AbortController();
  await send(key, args, ac.signal);
  ac.abort();
}

async function status(callId: string, want: string): Promise<void> {
  await until(
    () =>
      fetch(`${h.url}${routeUrl('getCall', { params: { callId } })}`).then(
        (r) => r.json() as Promise<{ status?: string }>,
      ),
    (c: { status?: string }) => c.status === want,
    `${callId} to be ${want}`,
  );
}

describe('every route answers what its schema says', () => {
  it('the service routes', async () => {
    await send('health', {});
    expect((await send('openapi', {})).paths).toBeTypeOf('object');
    expect(await send('prometheus', {})).toMatch(/toolbelt_gateway_http_requests_total/);
    await send('listTools', {});
    await send('listTools', { query: { format: 'anthropic' } });
    await stream('events', { query: { types: ['pending.created'] } });
  });

  it('calls, results, the inbox and decisions', async () => {
    const run = { runId: 'run-1' };
    await send('callTool', { params: run, body: { agentId: 'agent-a', name: 'echo', input: { text: 'hi' } } });
    const pending = await send('callTool', {
      params: run,
      body: { agentId: 'agent-a', name: 'lookup', input: { q: 'x' }, callId: 'look-1' },
    });
    expect(pending.status).toBe('pending');
    await send('submitResult', { params: run, body: { callId: 'look-1', result: { found: 1 } } });
    const inbox = await send('readInbox', { params: { agentId: 'agent-a' } });
    expect(inbox.messages.length).toBeGreaterThan(0);
    await send('ackInbox', { params: { agentId: 'agent-a' }, body: { ids: [inbox.messages[0].id] } });

    const note = (callId: string) =>
      send('callTool', { params: run, body: { agentId: 'agent-a', name: 'write_note', input: { note: 'n' }, callId } });
    const approved = note('note-ok');
    await status('note-ok', 'awaiting_approval');
    await send('approveCall', { params: { callId: 'note-ok' }, body: { scope: 'once' } });
    expect((await approved).status).toBe('success');
    const rejected = note('note-no');
    await status('note-no', 'awaiting_approval');
    await send('rejectCall', { params: { callId: 'note-no' }, body: { message: 'not now' } });
    expect((await rejected).status).toBe('rejected');

    await send('listCalls', { query: { status: ['success', 'rejected'], limit: 10 } });
    await send('getCall', { params: { callId: 'look-1' } });
    await send('executions', { query: { limit: 5 } });
  });

  it("a tool's question and its answer", async () => {
    const asked = fetch(`${h.url}${routeUrl('callTool', { params: { runId: 'run-q' } })}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agentId: 'agent-a', name: 'fx__ask_user', input: {}, callId: 'q-1' }),
    });
    const state = await until(
      () =>
        fetch(`${h.url}${routeUrl('getCall', { params: { callId: 'q-1' } })}`).then(
          (r) => r.json() as Promise<{ status?: string }>,
        ),
      (c: { status?: string }) => c.status === 'awaiting_input' || c.status === 'awaiting_approval',
      'q-1 to wait for a person',
    );
    if (state.status === 'awaiting_approval') {
      await fetch(`${h.url}${routeUrl('approveCall', { params: { callId: 'q-1' } })}`, { method: 'POST' });
      await status('q-1', 'awaiting_input');
    }
    await send('answerQuestion', { params: { callId: 'q-1' }, body: { action: 'decline' } });
    expect((await asked).status).toBe(200);
  });

  it('spaces, notes, the prompt and think cycles', async () => {
    const room = { spaceId: 'room' };
    await send('createSpace', { body: { name: 'Room', id: 'room' } });
    await send('listSpaces', {});
    await send('addMember', { params: room, body: { memberId: 'agent-b', kind: 'agent' } });
    await send('addMember', { params: room, body: { memberId: 'ada', kind: 'person' } });
    await send('listMembers', { params: room });
    await send('postMessage', { params: room, body: { senderId: 'ada', text: 'hello' } });
    await send('listMessages', { params: room, query: { offset: 0, limit: 10 } });
    await stream('spaceEvents', { params: room });
    await send('removeMember', { params: { spaceId: 'room', memberId: 'ada' } });

    const agent = { agentId: 'agent-b' };
    await send('agentGoals', { params: agent });
    await send('agentMemories', { params: agent });
    await send('agentPlans', { params: agent });
    await send('agentPrompt', { params: agent });
    const cycle = await send('takeCycle', { params: agent, query: { wait: 0 } });
    expect(cycle.cycleId).toBeTypeOf('string');
    await send('heartbeatCycle', { params: { ...agent, cycleId: cycle.cycleId } });
    await send('finishCycle', { params: { ...agent, cycleId: cycle.cycleId } });
  });

  it("the console's page, an asset and what it reads", async () => {
    expect(await send('consolePage', {})).toContain('/assets/app-1.js');
    expect(await send('consoleAsset', { params: { file: 'app-1.js' } })).toBe('console.log(1)');
    await send('whoAmI', {});
    await send('metrics', {});
    await send('groups', {});
  });

  it('has called every route of the table', () => {
    expect([...called].sort()).toEqual(Object.keys(ROUTES).sort());
  });
});
