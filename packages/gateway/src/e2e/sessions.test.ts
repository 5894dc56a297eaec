// A session id belongs to the agent that first used it. Agent B sending agent A's session id is
// refused, so it cannot borrow what a person approved "for the session" for A; and B's own calls
// are still asked. The real shell_exec and write_file tools, real tokens, over HTTP, on SQLite and
// on PostgreSQL.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Policy, ToolRegistry, type ToolResult } from '@toolbelt/core';
import { GatewayClient, GatewayError } from '@toolbelt/client';
import { builtinTools, WorkspaceGuard } from '@toolbelt/tools';
import { afterAll, describe, expect, it } from 'vitest';
import { until } from '../__fixtures__/harness.js';
import { dropSchemas, freshSchema, PG_URL, pgAvailable } from '../__fixtures__/pg.js';
import { policyWithStore } from '../decisions.js';
import { createGateway } from '../gateway.js';
import { openPgStore } from '../store/pg/index.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import type { GatewayStore } from '../store/index.js';

afterAll(dropSchemas);

const T = { a: 'agent-a-token-0000000000', b: 'agent-b-token-0000000000', approver: 'approver-token-000000000' };
const tokens = [
  { token: T.a, roles: ['call' as const], agents: ['agent-a'], name: 'a' },
  { token: T.b, roles: ['call' as const], agents: ['agent-b'], name: 'b' },
  { token: T.approver, roles: ['approve' as const], name: 'alice' },
];
const NOT_YOURS =
  'belongs to another agent; use a session id of your own, or omit sessionId (each agent then has its own session)';

async function gatewayOn(kind: 'sqlite' | 'pg') {
  const dir = mkdtempSync(join(tmpdir(), 'tb-sessions-'));
  const store: GatewayStore =
    kind === 'pg'
      ? await openPgStore(PG_URL, { schema: freshSchema('sess') })
      : openSqliteStore(join(dir, 'gateway.db'));
  const registry = new ToolRegistry().registerAll(
    builtinTools().filter((t) => t.name === 'shell_exec' || t.name === 'write_file'),
  );
  const policy = await policyWithStore(new Policy({ mode: 'safe' }), store);
  const workspace = new WorkspaceGuard({ roots: [dir] });
  const gw = await createGateway({ registry, policy, store, workspace, config: { gateway: { tokens } }, env: {} });
  const { url } = await gw.listen({ host: '127.0.0.1', port: 0 });
  const client = (token: string, agentId = 'agent-a') => new GatewayClient({ url, token, agentId });
  return {
    dir,
    store,
    client,
    close: async () => {
      await gw.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: GatewayError) => e,
  );

describe.each([
  ['SQLite', 'sqlite' as const, true],
  ['PostgreSQL', 'pg' as const, pgAvailable],
])('sessions belong to their agent (%s)', (_name, kind, available) => {
  it.skipIf(!available)("refuses another agent's session id; that agent's own calls are still asked", async () => {
    const g = await gatewayOn(kind);
    try {
      const [a, b, approver] = [g.client(T.a), g.client(T.b, 'agent-b'), g.client(T.approver)];
      /** A call asked for, approved by the approver token with `scope`; resolves with its result. */
      const approved = async (
        c: GatewayClient,
        callId: string,
        tool: string,
        input: Record<string, unknown>,
        o: { sessionId?: string },
        scope: 'session' | 'once',
      ) => {
        const result = c.call('run', tool, input, { callId, ...o });
        await until(
          () => approver.getCall(callId).catch(() => undefined),
          (x) => x?.status === 'awaiting_approval',
          `${callId} to be asked`,
        );
        await approver.approve(callId, scope);
        return result;
      };

      // A: shell_exec in its session, approved "for the session"; then the same command runs there without asking.
      const first = await approved(
        a,
        'a-1',
        'shell_exec',
        { command: 'touch one.txt' },
        { sessionId: 'sess-a' },
        'session',
      );
      expect(first).toMatchObject({ status: 'success', approvedBy: 'user' });
      expect(await a.call('run', 'shell_exec', { command: 'touch one.txt' }, { sessionId: 'sess-a' })).toMatchObject({
        status: 'success',
        approvedBy: 'remembered',
      });

      // B sends A's session id: refused before anything runs, saying what to do.
      const stolen = await refusal(
        b.call('run', 'shell_exec', { command: 'touch one.txt' }, { sessionId: 'sess-a', callId: 'b-stolen' }),
      );
      expect(stolen).toMatchObject({ status: 403, code: 'SESSION_NOT_YOURS' });
      expect(stolen?.message).toBe(`session "sess-a" ${NOT_YOURS}`);
      expect(await g.store.getCall('b-stolen')).toBeUndefined();

      // B without a session id: its shell_exec waits for a person, and is not run when rejected.
      const own = b.call('run', 'shell_exec', { command: 'touch one.txt' }, { callId: 'b-1' });
      await until(
        () => approver.getCall('b-1').catch(() => undefined),
        (x) => x?.status === 'awaiting_approval',
        'b-1 to be asked',
      );
      await approver.reject('b-1');
      expect(((await own) as ToolResult).status).toBe('rejected');

      // A's default session (no sessionId) holds a write_file approval; B cannot send it either.
      const wrote = await approved(a, 'a-w1', 'write_file', { path: 'a.txt', content: 'one' }, {}, 'session');
      expect(wrote.status).toBe('success');
      expect(await a.call('run', 'write_file', { path: 'a.txt', content: 'two' })).toMatchObject({
        status: 'success',
        approvedBy: 'remembered',
      });
      expect(readFileSync(join(g.dir, 'a.txt'), 'utf8')).toBe('two');
      const intoDefault = await refusal(
        b.call('run', 'write_file', { path: 'a.txt', content: 'b' }, { sessionId: 'agent-a' }),
      );
      expect(intoDefault).toMatchObject({ status: 403, code: 'SESSION_NOT_YOURS' });
      expect(readFileSync(join(g.dir, 'a.txt'), 'utf8')).toBe('two');
    } finally {
      await g.close();
    }
  });

  it.skipIf(!available)("keeps each session's owner in the database: a reopened store still knows it", async () => {
    if (kind === 'pg') {
      const schema = freshSchema('sess');
      const first = await openPgStore(PG_URL, { schema });
      expect(await first.claimSession('s', 'agent-a', 1)).toBe('agent-a');
      await first.close();
      const again = await openPgStore(PG_URL, { schema });
      expect(await Promise.all([again.claimSession('s', 'agent-b', 2), again.claimSession('t', 'agent-b', 2)])).toEqual(
        ['agent-a', 'agent-b'],
      );
      await again.close();
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), 'tb-sessions-'));
    const first = openSqliteStore(join(dir, 'g.db'));
    expect(await first.claimSession('s', 'agent-a', 1)).toBe('agent-a');
    await first.close();
    const again = openSqliteStore(join(dir, 'g.db'));
    expect(await Promise.all([again.claimSession('s', 'agent-b', 2), again.claimSession('t', 'agent-b', 2)])).toEqual([
      'agent-a',
      'agent-b',
    ]);
    await again.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
