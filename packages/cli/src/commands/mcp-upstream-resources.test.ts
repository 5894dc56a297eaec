// A proxied (upstream) MCP server's resources are judged like that server's tools: `toolbelt mcp`
// (a real process over stdio, the official SDK client) refuses a resources/read of an untrusted
// server in safe mode, saying how to allow it; `"trust": "read"` or a rule naming the read allows it.
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { FIXTURE_SERVER } from '../../../mcp/src/__fixtures__/servers.js';
import { useIsolatedState, writeTrustedConfig } from '../__fixtures__/trust.js';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'toolbelt.js');
useIsolatedState();
const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

/** `toolbelt mcp` over a workspace whose config proxies the fixture server as "fx". */
async function toolbeltMcp(config: Record<string, unknown>, fx: Record<string, unknown> = {}): Promise<Client> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'toolbelt-upstream-res-')));
  roots.push(root);
  writeTrustedConfig(root, {
    mode: 'safe',
    ...config,
    mcpServers: { fx: { command: process.execPath, args: [FIXTURE_SERVER], ...fx } },
  });
  const client = new Client({ name: 'upstream-resources-test', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--root', root],
      env: { ...process.env } as Record<string, string>,
      stderr: 'pipe',
    }),
  );
  return client;
}

async function read(client: Client): Promise<string> {
  try {
    const r = await client.readResource({ uri: 'note://one' });
    return (r.contents[0] as { text: string }).text;
  } catch (err) {
    return `refused: ${(err as Error).message}`;
  } finally {
    await client.close();
  }
}

describe.runIf(existsSync(join(dirname(BIN), '..', 'dist', 'commands', 'mcp.js')))(
  "toolbelt mcp: a proxied server's resources",
  () => {
    it('refuses a read from an untrusted server in safe mode, saying how to allow it', async () => {
      const client = await toolbeltMcp({});
      expect((await client.listResources()).resources.map((r) => r.uri)).toContain('note://one');
      const answer = await read(client);
      expect(answer).toContain('refused: ');
      expect(answer).toContain(
        'reading note://one from MCP server "fx" needs approval (mode "safe" says ask for execute calls)',
      );
      expect(answer).toContain('which a resource read cannot ask for');
      expect(answer).toContain('{"tool": "fx__resources.read", "action": "allow"}');
      expect(answer).toContain('"trust": "read" in mcpServers.fx');
    });

    it('reads it from a server trusted with "trust": "read"', async () => {
      expect(await read(await toolbeltMcp({}, { trust: 'read' }))).toBe('the note says hi');
    });

    it('reads it when a rule names the read, or allows the URI; a rule for one of its tools does not', async () => {
      expect(await read(await toolbeltMcp({ rules: [{ tool: 'fx__resources.read', action: 'allow' }] }))).toBe(
        'the note says hi',
      );
      expect(
        await read(await toolbeltMcp({ rules: [{ tool: 'fx__resources.read', url: 'note://*', action: 'allow' }] })),
      ).toBe('the note says hi');
      expect(await read(await toolbeltMcp({ rules: [{ tool: 'fx__echo', action: 'allow' }] }))).toContain('refused: ');
    });

    it('is refused in any mode by a deny rule, and asked (so refused) in "ask" mode even when trusted', async () => {
      const denied = await read(
        await toolbeltMcp({ mode: 'yolo', rules: [{ tool: 'fx__*', action: 'deny', reason: 'fx is off limits' }] }),
      );
      expect(denied).toContain('reading note://one from MCP server "fx" is denied: rule #1');
      expect(denied).toContain('fx is off limits');
      expect(await read(await toolbeltMcp({ mode: 'ask' }, { trust: 'read' }))).toContain('needs approval');
    });
  },
);
