// A real gateway on 127.0.0.1 with an ephemeral port and a SQLite file in a temp dir, for tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTool, Policy, ToolRegistry, type Mode, type Tool, type Workspace } from '@toolbelt/core';
import type { McpServerState } from '@toolbelt/protocol';
import { GatewayClient } from '@toolbelt/client';
import type { GatewayConfig } from '../config.js';
import { createGateway, type Gateway } from '../gateway.js';
import { policyWithStore } from '../decisions.js';
import { openSqliteStore, type SqliteStore } from '../store/sqlite/index.js';
import type { Listening } from '../server.js';
import type { GatewayStore } from '../store/index.js';

export const echoTool = defineTool({
  name: 'echo',
  description: 'Returns its text.',
  input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  effect: 'read',
  execute: (input: { text: string }) => `echo: ${input.text}`,
});

export const noteTool = defineTool({
  name: 'write_note',
  description: 'Writes a note (a write: asks for approval in safe mode).',
  input: { type: 'object', properties: { note: { type: 'string' } }, required: ['note'] },
  effect: 'write',
  execute: (input: { note: string }) => `wrote ${input.note}`,
});

export interface Harness {
  gw: Gateway;
  registry: ToolRegistry;
  store: SqliteStore;
  url: string;
  dir: string;
  db: string;
  client(opts?: { token?: string; agentId?: string }): GatewayClient;
  /** Closes the gateway and the store (the directory stays until cleanup). */
  stop(): Promise<void>;
  cleanup(): Promise<void>;
}

export interface HarnessOptions {
  config?: GatewayConfig;
  tools?: Tool[];
  mode?: Mode;
  env?: Record<string, string | undefined>;
  fetch?: typeof fetch;
  heartbeatMs?: number;
  /** Reuse a directory (and its database) from an earlier harness. */
  dir?: string;
  /** The database file; default gateway.db in the directory. */
  db?: string;
  /** The workspace the built-in file tools work in. */
  workspace?: Workspace;
  /** Agents put in the space "room" at the start, so their visible calls have a space. */
  inSpace?: string[];
  /** The web console's directory (default: the built one, when built); false: none. */
  consoleDir?: string | false;
  mcpServers?: () => McpServerState[];
}

/** Makes `spaceId` (once) and puts the agents in it as their active space. */
export async function putInSpace(store: GatewayStore, agentIds: readonly string[], spaceId = 'room'): Promise<void> {
  await store.spaces.createSpace({ id: spaceId, name: spaceId, createdAt: Date.now() });
  for (const agentId of agentIds) {
    await store.spaces.addMember({ spaceId, memberId: agentId, kind: 'agent', joinedAt: Date.now() });
    await store.spaces.setActiveSpace(agentId, spaceId, Date.now());
  }
}

export async function startGateway(o: HarnessOptions = {}): Promise<Harness> {
  const dir = o.dir ?? mkdtempSync(join(tmpdir(), 'tb-gw-'));
  const db = o.db ?? join(dir, 'gateway.db');
  const store = openSqliteStore(db);
  const registry = new ToolRegistry().registerAll(o.tools ?? [echoTool, noteTool]);
  const policy = await policyWithStore(new Policy({ mode: o.mode ?? 'safe' }), store);
  const gw = await createGateway({
    registry,
    policy,
    store,
    config: o.config ?? {},
    env: o.env ?? {},
    ...(o.workspace ? { workspace: o.workspace } : {}),
    ...(o.fetch ? { fetch: o.fetch } : {}),
    ...(o.heartbeatMs ? { heartbeatMs: o.heartbeatMs } : {}),
    ...(o.consoleDir !== undefined ? { consoleDir: o.consoleDir } : {}),
    ...(o.mcpServers ? { mcpServers: o.mcpServers } : {}),
  });
  if (o.inSpace) await putInSpace(store, o.inSpace);
  const listening: Listening = await gw.listen({ host: '127.0.0.1', port: 0 });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await gw.close();
    await store.close();
  };
  return {
    gw,
    registry,
    store,
    dir,
    db,
    url: listening.url,
    client: (c = {}) =>
      new GatewayClient({
        url: listening.url,
        agentId: c.agentId ?? 'agent-a',
        ...(c.token ? { token: c.token } : {}),
      }),
    stop,
    async cleanup() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves with the first value of `poll()` that passes `ok`, checking on each event-loop turn. */
export async function until<T>(
  poll: () => Promise<T> | T,
  ok: (v: T) => boolean,
  what: string,
  limitMs = 5000,
): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const v = await poll();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
