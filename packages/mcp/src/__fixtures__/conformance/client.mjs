#!/usr/bin/env node
// toolbelt's MCP client as the conformance suite drives it: `client.mjs <server-url>`. It does what
// `toolbelt call --yes` does with a server in mcpServers: connect (signing in with OAuth first when
// the server asks, as `toolbelt mcp login` would, with a browser that approves at once), then call
// each of the server's tools with simple arguments; elicitations are answered with their defaults.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acceptDefaults, Executor, Policy, ToolRegistry } from '@toolbelt/core';
import { login, McpManager } from '@toolbelt/mcp';

const url = process.argv.at(-1);
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
const dir = mkdtempSync(join(tmpdir(), 'tb-conformance-'));
const oauth = context.client_id
  ? { clientId: context.client_id, ...(context.client_secret ? { clientSecret: context.client_secret } : {}) }
  : undefined;
const config = { url, ...(oauth ? { oauth } : {}), retry: { attempts: 0 } };

/** Follows the authorization page's redirect back to the loopback, as a person approving would. */
async function browser(page) {
  const answer = await fetch(page, { redirect: 'manual' });
  const back = answer.headers.get('location');
  if (!back) throw new Error(`the authorization page answered ${answer.status} without a redirect`);
  await fetch(back);
}

function argumentsFor(schema) {
  const args = {};
  for (const [key, prop] of Object.entries(schema?.properties ?? {})) {
    args[key] = prop.type === 'number' || prop.type === 'integer' ? 1 : prop.type === 'boolean' ? true : 'x';
  }
  return args;
}

const registry = new ToolRegistry();
const manager = new McpManager({
  servers: { s: config },
  registry,
  oauthDir: dir,
  restart: { maxAttempts: 1 },
  log: (_s, line) => console.error(line),
});
const executor = new Executor({ registry, policy: new Policy({ mode: 'yolo' }), elicitor: acceptDefaults });
let code = 0;
try {
  await manager.start();
  const status = manager.status().s;
  if (status.state === 'failed' && status.reason.includes('sign in')) {
    await login({ server: 's', config, dir, open: browser });
    await manager.reconnect('s');
  }
  console.error(`status: ${JSON.stringify(manager.status().s)}`);
  for (const name of manager.toolsOf('s')) {
    const input = argumentsFor(registry.get(name)?.jsonSchema);
    let result = await executor.call({ tool: name, input });
    // A server that wants more access (step-up): sign in again, as the error says, and call again.
    if (result.status === 'error' && result.error.message.includes('toolbelt mcp login')) {
      await login({ server: 's', config, dir, open: browser });
      result = await executor.call({ tool: name, input });
    }
    console.error(`${name}: ${result.status} ${JSON.stringify(result.content ?? result.error)}`);
    if (result.status !== 'success') code = 1;
  }
} catch (err) {
  console.error(`client failed: ${err.stack ?? err}`);
  code = 1;
} finally {
  await manager.close();
  await executor.close();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
