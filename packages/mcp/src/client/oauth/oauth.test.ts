// OAuth 2.1 to a remote MCP server, against a local authorization server and the MCP server it
// protects: login runs the browser flow (the "browser" follows the redirects), tokens land in a
// 0600 file, the aggregator then connects with them, refreshes an expired one, and a server that
// needs a sign-in fails at once with the command that fixes it.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolRegistry } from '@toolbelt/core';
import { OAuthServers } from '../../__fixtures__/oauth-servers.js';
import { McpManager } from '../manager.js';
import { login } from './login.js';

let servers: OAuthServers;
let dir: string;

beforeEach(async () => {
  servers = await new OAuthServers().start();
  dir = mkdtempSync(join(tmpdir(), 'tb-oauth-'));
});
afterEach(async () => {
  await servers.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A browser that approves at once: follows the authorization page's redirect to the loopback. */
async function browser(url: URL): Promise<void> {
  const page = await fetch(url, { redirect: 'manual' });
  const back = page.headers.get('location');
  if (!back) throw new Error(`no redirect from ${url.href}: ${page.status}`);
  await fetch(back);
}

const oauthDir = () => join(dir, 'oauth');

async function connect() {
  const registry = new ToolRegistry();
  const manager = new McpManager({
    servers: { remote: { url: servers.mcp } },
    registry,
    oauthDir: oauthDir(),
    restart: { maxAttempts: 1 },
  });
  await manager.start();
  return { manager, registry };
}

describe('OAuth to a remote MCP server', () => {
  it('signs in with discovery, dynamic registration, PKCE and the resource parameter, and keeps the tokens 0600', async () => {
    await login({ server: 'remote', config: { url: servers.mcp }, dir: oauthDir(), open: browser });
    expect(servers.registered).toEqual(['client-1']);
    const authorize = servers.authorizeRequests[0];
    expect(authorize.get('code_challenge_method')).toBe('S256');
    expect(authorize.get('resource')).toBe(servers.mcp);
    expect(servers.tokenRequests[0]).toMatchObject({
      grant_type: 'authorization_code',
      resource: servers.mcp,
      client_id: 'client-1',
    });
    const file = join(oauthDir(), 'remote.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(oauthDir()).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8')).tokens.access_token).toMatch(/^[0-9a-f]{32}$/);
  });

  it('connects with the stored token, and refreshes it when it expired', async () => {
    await login({ server: 'remote', config: { url: servers.mcp }, dir: oauthDir(), open: browser });
    const { manager, registry } = await connect();
    try {
      expect(manager.status().remote).toMatchObject({ state: 'connected' });
      servers.expireAccessTokens();
      const result = await manager.connection('remote')!.call('whoami', {}, { signal: new AbortController().signal });
      expect(result.content).toEqual([{ type: 'text', text: 'scope read' }]);
      expect(servers.tokenRequests.map((r) => r.grant_type)).toEqual(['authorization_code', 'refresh_token']);
      expect(registry.has('remote__whoami')).toBe(true);
    } finally {
      await manager.close();
    }
  });

  it('fails a server that needs a sign-in at once, naming the login command', async () => {
    const { manager } = await connect();
    try {
      expect(manager.status().remote).toEqual({
        state: 'failed',
        reason: 'MCP server "remote" needs you to sign in: run `toolbelt mcp login remote`',
        attempts: 1,
      });
    } finally {
      await manager.close();
    }
  });

  it('uses a pre-registered client instead of registering one', async () => {
    const config = { url: servers.mcp, oauth: { clientId: 'known-client' } };
    await login({ server: 'remote', config, dir: oauthDir(), open: browser });
    expect(servers.registered).toEqual([]);
    expect(servers.tokenRequests[0]).toMatchObject({ client_id: 'known-client' });
  });

  it('refuses an answer whose state does not match', async () => {
    const forged = async (url: URL) => {
      const back = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!);
      back.searchParams.set('state', 'forged');
      await fetch(back);
    };
    await expect(
      login({ server: 'remote', config: { url: servers.mcp }, dir: oauthDir(), open: forged }),
    ).rejects.toThrow('state mismatch');
  });
});
