// JSON blocks: parsed; a toolbelt.config.json example is checked with the config's own schema, and an
// MCP client's config is used as a client would use it: each stdio server started and its tools listed.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parseConfig } from '../../packages/cli/src/config/load.js';
import { fillPaths, type DocWorkspace } from './workspace.js';

export function parseJson(code: string): unknown {
  try {
    return JSON.parse(code);
  } catch (err) {
    throw new Error(`not valid JSON: ${(err as Error).message}`, { cause: err });
  }
}

/** Throws the config's own error (every problem with its path) when the example is not a valid config. */
export function checkConfig(id: string, code: string): void {
  parseConfig(id, parseJson(code));
}

interface ClientEntry {
  command?: string;
  args?: string[];
  url?: string;
}

/** Starts each stdio server of an MCP client's `mcpServers` and returns how many tools each lists. */
export async function listClientTools(code: string, w: DocWorkspace): Promise<Record<string, number>> {
  const config = parseJson(fillPaths(code, w)) as { mcpServers?: Record<string, ClientEntry> };
  const servers = Object.entries(config.mcpServers ?? {});
  if (!servers.length) throw new Error('an MCP client config without "mcpServers"');
  const counts: Record<string, number> = {};
  for (const [name, entry] of servers) {
    if (!entry.command) throw new Error(`${name}: only stdio servers (command, args) can be started here`);
    const client = new Client({ name: 'doc-tests', version: '1' });
    const env = Object.fromEntries(Object.entries(w.env).filter((e): e is [string, string] => e[1] !== undefined));
    await client.connect(
      new StdioClientTransport({ command: entry.command, args: entry.args ?? [], cwd: w.ws, env, stderr: 'pipe' }),
    );
    try {
      counts[name] = (await client.listTools()).tools.length;
    } finally {
      await client.close();
    }
  }
  return counts;
}
