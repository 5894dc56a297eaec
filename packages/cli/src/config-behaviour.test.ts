// A gateway on its own, started with a config that sets structuredText and log redaction, answers
// and logs a call as the CLI's runtime does with the same config: the model reads TOON, and the log
// keeps the redacted parameter as [redacted: N chars] and no result. (The gateway used to map only
// `limits` into its executor, so it answered pretty JSON and logged the secret.)
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defineTool, structuredText, ToolRegistry, type ExecutionLogEntry } from '@toolbelt/core';
import { GatewayClient } from '@toolbelt/client';
import { createGateway, openSqliteStore, type GatewayConfig } from '@toolbelt/gateway';
import { createRuntime } from './runtime.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tb-config-behaviour-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const root = join(dir, 'ws');
mkdirSync(root);
const env = { XDG_STATE_HOME: join(dir, 'state') };

const rows = [
  { id: 1, name: 'ada', team: 'core' },
  { id: 2, name: 'bob', team: 'core' },
  { id: 3, name: 'cy', team: 'web' },
];
const facts = defineTool({
  name: 'facts',
  description: 'Returns the team as rows.',
  input: { type: 'object', properties: { secret: { type: 'string' } }, required: ['secret'] },
  effect: 'read',
  execute: () => ({ structured: { rows } }),
});
const config: GatewayConfig = { structuredText: 'toon', log: { redact: ['secret'], results: false } };
const input = { secret: 'hunter2' };

/** The CLI's way: the runtime built from the config file, as `toolbelt call` and `toolbelt mcp` run. */
async function viaCli(): Promise<{ text: string; logged: ExecutionLogEntry }> {
  const file = join(dir, 'toolbelt.config.json');
  writeFileSync(file, JSON.stringify(config));
  const rt = await createRuntime(
    { root: [root], config: file },
    { env, providers: [() => Promise.resolve({ tools: [facts] })] },
  );
  const result = await rt.executor.call({ tool: 'facts', input, origin: 'terminal' });
  await rt.close();
  const lines = readFileSync(join(root, '.toolbelt', 'executions.jsonl'), 'utf8')
    .trim()
    .split('\n');
  return { text: (result.content[0] as { text: string }).text, logged: JSON.parse(lines.at(-1)!) };
}

/** A gateway on its own, called over HTTP; its log is in its database. */
async function viaGateway(): Promise<{ text: string; logged: ExecutionLogEntry }> {
  const store = openSqliteStore(join(dir, 'gateway.db'));
  const gw = await createGateway({
    registry: new ToolRegistry().registerAll([facts]),
    store,
    config,
    env: {},
    consoleDir: false,
  });
  try {
    const { url } = await gw.listen({ host: '127.0.0.1', port: 0 });
    const result = await new GatewayClient({ url, agentId: 'agent-a' }).call('run-1', 'facts', input);
    // Closing writes what the log buffered.
    await gw.close();
    const { entries } = await store.listExecutions({ limit: 10 });
    return { text: (result.content[0] as { text: string }).text, logged: entries[0] };
  } finally {
    await store.close();
  }
}

describe('a gateway with structuredText and log redaction in its config', () => {
  it('answers and logs a call as the CLI does', async () => {
    const [cli, gateway] = [await viaCli(), await viaGateway()];
    // TOON, as the config asks: not the pretty JSON the gateway gave before.
    expect(cli.text).toBe(structuredText({ rows }, 'toon'));
    expect(cli.text).not.toBe(structuredText({ rows }, 'json'));
    expect(gateway.text).toBe(cli.text);
    for (const logged of [cli.logged, gateway.logged]) {
      expect(logged).toMatchObject({ tool: 'facts', status: 'success', params: { secret: '[redacted: 7 chars]' } });
      expect(logged.result).toBeUndefined();
      expect(JSON.stringify(logged)).not.toContain('hunter2');
    }
  });
});
