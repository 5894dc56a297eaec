// `toolbelt agent` end to end: a real `toolbelt serve` (child process, ephemeral port, tokens), a
// local server speaking OpenAI's Chat Completions stream with scripted tool calls, and the gateway
// specification's travel example over think cycles, each in a fresh agent process: the inbox is
// handed out once, the memory saved in one cycle is in the next cycle's prompt, a visible tool is
// called after enter_space, and a cycle with nothing to do is skipped. On SQLite and PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient, type SpaceMessage } from '@toolbelt/client';
import { chatStream } from '../../../agent/src/__fixtures__/openai.js';
import { providerServer, type ProviderServer } from '../../../agent/src/__fixtures__/server.js';
import { dropSchemas, freshSchema, PG_URL, pgAvailable } from '../../../gateway/src/__fixtures__/pg.js';
import { freshBundle, runCli, serve, stopChildren } from '../__fixtures__/cli-process.js';
import { writeTrustedConfig } from '../__fixtures__/trust.js';

const T = { admin: 'admin-token-0123456789', husam: 'husam-token-0123456789', planner: 'planner-token-0123456789' };
const stateHome = mkdtempSync(join(tmpdir(), 'tb-agent-state-'));
const ENV = {
  ...process.env,
  TOOLBELT_GATEWAY_TOKEN: '',
  TOOLBELT_GATEWAY_TOKEN_FILE: '',
  TOOLBELT_DB: '',
  OPENAI_API_KEY: '',
  XDG_STATE_HOME: stateHome,
};
const dirs: string[] = [];

const CONFIG = {
  tools: [
    {
      name: 'confirmAction',
      description: 'Ask the user to confirm an action',
      inputSchema: { type: 'object', properties: { question: { type: 'string' } }, required: ['question'] },
      executionType: 'space',
      isAsync: true,
    },
    {
      name: 'bookHotel',
      description: 'Book a hotel (shown in the space)',
      inputSchema: {
        type: 'object',
        properties: { city: { type: 'string' }, hotel: { type: 'string' } },
        required: ['city', 'hotel'],
      },
      executionType: 'internal',
      visible: true,
    },
  ],
  gateway: {
    tokens: [
      { name: 'ops', token: T.admin, roles: ['admin'] },
      { name: 'husam', token: T.husam, roles: ['person'] },
      { name: 'planner', token: T.planner, roles: ['call'], agents: ['planner'] },
    ],
  },
};

beforeAll(() => {
  freshBundle([
    'packages/cli/src/commands/agent.ts',
    'packages/agent/src/gateway/agent.ts',
    'packages/gateway/src/spaces/prompt-text.ts',
  ]);
}, 120_000);
afterAll(async () => {
  await stopChildren();
  for (const d of [...dirs, stateHome]) rmSync(d, { recursive: true, force: true });
  if (pgAvailable) await dropSchemas();
});

const call = (id: string, name: string, input: unknown) => ({ id, name, input });
/** The model's side of the travel example, one scripted answer per model turn. */
const SCRIPT = [
  // Cycle 1: Husam asks for a hotel.
  chatStream('Asking Husam first.', [
    call('call_1', 'enter_space', { spaceId: 'travel' }),
    call('call_2', 'confirmAction', { question: 'Book the Park Hyatt Tokyo, 3 nights?' }),
    call('call_3', 'set_memories', {
      memories: [{ text: 'Husam wants a hotel in Tokyo; proposed the Park Hyatt, 3 nights' }],
    }),
  ]),
  chatStream('Asked Husam to confirm. Moving on.'),
  // Cycle 2: the confirmation arrives in the inbox.
  chatStream('Husam confirmed! Booking now.', [
    call('call_1', 'bookHotel', { city: 'Tokyo', hotel: 'Park Hyatt' }),
    call('call_2', 'send_message', { text: 'Booked the Park Hyatt Tokyo for 3 nights.' }),
  ]),
  chatStream('Done.'),
  // Cycle 3: a thank-you needs nothing.
  chatStream('', [call('call_1', 'skip', { reason: 'a thank-you; nothing to do' })]),
];

const stores = [
  { name: 'SQLite', db: (dir: string) => join(dir, 'gw.db'), skip: false },
  { name: 'PostgreSQL', db: () => `${PG_URL}?schema=${freshSchema('agent')}`, skip: !pgAvailable },
];

describe.each(stores)('toolbelt agent on $name', ({ db, skip }) => {
  let model: ProviderServer;
  let url: string;
  const as = (token: string) => new GatewayClient({ url, token, agentId: 'planner' });
  const flags = () => [
    '--gateway',
    url,
    '--agent',
    'planner',
    '--provider',
    'openai-chat',
    '--model',
    'gpt-test',
    '--base-url',
    `${model.url}/v1`,
  ];
  const agent = (token = T.planner) =>
    runCli(['agent', ...flags(), '--cycles', '1', '--wait', '20000'], { ...ENV, TOOLBELT_GATEWAY_TOKEN: token });
  const body = (i: number) =>
    model.requests[i].body as {
      messages: { role: string; content: string }[];
      tools: { function: { name: string } }[];
    };
  const system = (i: number) => body(i).messages[0].content;
  const userTurns = (i: number) =>
    body(i)
      .messages.filter((m) => m.role === 'user')
      .map((m) => m.content);

  beforeAll(async () => {
    if (skip) return;
    const dir = mkdtempSync(join(tmpdir(), 'tb-agent-'));
    dirs.push(dir);
    writeTrustedConfig(dir, CONFIG, ENV);
    model = await providerServer(SCRIPT.map((sse) => ({ sse })));
    url = (await serve(['--root', dir, '--db', db(dir)], ENV)).url;
    const admin = as(T.admin);
    await admin.createSpace('Travel', 'travel');
    await admin.addMember('travel', 'husam', 'person');
    await admin.addMember('travel', 'planner', 'agent');
  }, 60_000);
  afterAll(async () => {
    await model?.close();
  });

  it.skipIf(skip)(
    'runs the travel example over two cycles: inbox once, memories kept, the visible tool in the space',
    async () => {
      const husam = as(T.husam);
      await husam.postMessage('travel', 'husam', 'Book a hotel in Tokyo');

      const first = await agent();
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain('Asked Husam to confirm.');
      expect(first.stderr).toMatch(/cycle cy_\S+: 1 inbox message, 2 model turns, 3 tool calls, done/);
      expect(model.requests).toHaveLength(2);
      expect(system(0)).toContain('call enter_space before a visible tool');
      expect(system(0)).toContain('Your memories: none.');
      expect(system(0)).toContain('Visible tools: confirmAction, bookHotel.');
      expect(userTurns(0)).toEqual([
        expect.stringMatching(
          /^INBOX of cycle cy_\S+: 1 new[^]*\n1\. \[space "travel"\] husam \(person\): Book a hotel in Tokyo$/,
        ),
      ]);
      expect(body(0).tools.map((t) => t.function.name)).toEqual(
        expect.arrayContaining(['enter_space', 'confirmAction', 'bookHotel', 'set_memories', 'skip']),
      );
      const results = body(1)
        .messages.filter((m) => m.role === 'tool')
        .map((m) => m.content);
      expect(results[0]).toContain('"spaceId": "travel"');
      expect(results[1]).toContain('runs asynchronously');
      expect(results[2]).toContain('Husam wants a hotel in Tokyo');

      // Husam answers the confirmation in the space; the result goes to the agent's inbox.
      const waiting = (await husam.messages('travel')).messages.find((m) => m.tool === 'confirmAction') as SpaceMessage;
      expect(waiting.status).toBe('requires_action');
      expect((await husam.answer(waiting, { confirmed: true })).delivered).toBe('inbox');

      // A new agent process: what it knows of cycle 1 comes from the gateway alone.
      const second = await agent();
      expect(second.code, second.stderr).toBe(0);
      expect(second.stderr).toMatch(/cycle cy_\S+: 1 inbox message, 2 model turns, 2 tool calls, done/);
      expect(model.requests).toHaveLength(4);
      expect(system(2)).toMatch(
        /Your memories:\n- \[m_[0-9a-f]+\] Husam wants a hotel in Tokyo; proposed the Park Hyatt, 3 nights/,
      );
      expect(system(2)).toContain('Your active space: travel ("Travel").');
      const [inbox] = userTurns(2);
      expect(inbox).toMatch(/1\. \[tool result\] confirmAction \(call tc_\S+, cycle cy_\S+\): \{"confirmed":true\}$/);
      expect(userTurns(2).join('\n')).not.toContain('Book a hotel in Tokyo');

      const messages = (await husam.messages('travel')).messages;
      expect(messages.map((m) => [m.senderId, m.kind, m.tool ?? m.text, m.status])).toEqual([
        ['husam', 'text', 'Book a hotel in Tokyo', 'complete'],
        ['planner', 'tool_call', 'confirmAction', 'complete'],
        ['planner', 'tool_call', 'bookHotel', 'complete'],
        ['planner', 'text', 'Booked the Park Hyatt Tokyo for 3 nights.', 'complete'],
      ]);
      const planner = as(T.planner);
      expect(await planner.inbox('planner')).toEqual([]);
      expect(await planner.takeCycle('planner', { waitMs: 0 })).toEqual({ cycleId: null, messages: [] });
      expect((await planner.notes('planner', 'memories')).map((n) => n.text)).toEqual([
        'Husam wants a hotel in Tokyo; proposed the Park Hyatt, 3 nights',
      ]);
      // Each call is recorded with its cycle as the run.
      const runs = new Set((await as(T.admin).calls({ agentId: 'planner' })).calls.map((c) => c.runId));
      expect(runs.size).toBe(2);
      for (const r of runs) expect(`${first.stderr}${second.stderr}`).toContain(`cycle ${r}:`);
    },
    120_000,
  );

  it.skipIf(skip)(
    'stops at once with a token the gateway does not know: exit 1, no model call',
    async () => {
      const before = model.requests.length;
      const refused = await agent('not-a-known-token-0123456789');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^error: .*token/m);
      expect(model.requests).toHaveLength(before);
    },
    60_000,
  );

  it.skipIf(skip)(
    'skips a cycle with nothing to do: one model turn, no message posted',
    async () => {
      await as(T.husam).postMessage('travel', 'husam', 'Thanks!');
      const before = (await as(T.husam).messages('travel')).total;
      const third = await agent();
      expect(third.code, third.stderr).toBe(0);
      expect(third.stderr).toMatch(/cycle cy_\S+: 1 inbox message, 1 model turns, 1 tool calls, skipped/);
      expect(model.requests).toHaveLength(5);
      expect((await as(T.husam).messages('travel')).total).toBe(before);
    },
    60_000,
  );
});
