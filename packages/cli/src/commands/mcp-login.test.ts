// `toolbelt mcp login SERVER` against a local authorization server and the MCP server it protects:
// the command prints the authorization page, a "browser" follows it back to the loopback, and
// `toolbelt mcp --status` then connects with the stored token.
import { mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthServers } from '../../../mcp/src/__fixtures__/oauth-servers.js';
import { runMain } from '../__fixtures__/run-main.js';
import { useIsolatedState, writeTrustedConfig } from '../__fixtures__/trust.js';
import { main } from '../main.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'tb-login-')));
const state = useIsolatedState();
let servers: OAuthServers;

beforeAll(async () => {
  servers = await new OAuthServers().start();
  writeTrustedConfig(root, { mcpServers: { remote: { url: servers.mcp }, local: { command: 'true' } } });
});
afterAll(async () => {
  await servers.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
});

/** Runs `toolbelt mcp login` with a browser that approves the page the command prints. */
async function loginWithBrowser(server: string): Promise<{ code: number; err: string }> {
  const stderr = new PassThrough();
  let err = '';
  stderr.on('data', (d) => {
    err += d;
    const page = /^\s+(http\S+)$/m.exec(err)?.[1];
    if (page && !err.includes('(visited)')) {
      err += '(visited)';
      void fetch(page, { redirect: 'manual' }).then((r) => fetch(r.headers.get('location')!));
    }
  });
  const code = await main(['mcp', 'login', server, '--root', root, '--no-browser'], {
    stdout: new PassThrough(),
    stderr,
    stdin: Readable.from(['']),
    interactive: false,
  });
  return { code, err };
}

describe('toolbelt mcp login', () => {
  it('signs in through the browser flow, and the server then connects with the stored token', async () => {
    const before = await runMain(['mcp', '--status', '--root', root]);
    expect(before.out).toContain('MCP server "remote" needs you to sign in: run `toolbelt mcp login remote`');
    const r = await loginWithBrowser('remote');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('Signed in to "remote"');
    expect(statSync(join(root, '.toolbelt', 'oauth', 'remote.json')).mode & 0o777).toBe(0o600);
    const after = await runMain(['mcp', '--status', '--root', root]);
    expect(after.out).toMatch(/remote\s+connected over http, 1 tool/);
  });

  it('says which servers exist when the name is wrong, and refuses a stdio server', async () => {
    const unknown = await runMain(['mcp', 'login', 'nope', '--root', root]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('no MCP server named "nope" in mcpServers; configured: remote, local');
    const stdio = await runMain(['mcp', 'login', 'local', '--root', root]);
    expect(stdio.err).toContain('MCP server "local" is a stdio server; only http and sse servers sign in');
  });
});
