// `toolbelt mcp login SERVER`: the browser flow with a loopback redirect. A one-request HTTP server
// on 127.0.0.1 receives the authorization code; the SDK's auth() does discovery, registration,
// PKCE and the token exchange, and the provider stores the tokens (0600) for every later connect.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { auth, extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { OAuthClientInformationMixed } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpServerConfig } from '../../config.js';
import { StoredOAuthProvider } from './provider.js';
import { OAuthStore } from './store.js';

export interface LoginOptions {
  server: string;
  config: McpServerConfig;
  /** Where OAuth state is kept (`.toolbelt/oauth`). */
  dir: string;
  /** Sends the person to the authorization page (opens a browser, prints the URL). */
  open(url: URL): void | Promise<void>;
  /** Loopback port for the redirect; default any free one. A pre-registered client needs the one it registered. */
  port?: number;
  /** How long to wait for the browser to come back; default 5 minutes. */
  timeoutMs?: number;
}

const DONE_PAGE =
  '<!doctype html><title>toolbelt</title><p>Signed in. You can close this tab and go back to the terminal.</p>';

/** The loopback server: resolves with the query of the first request to /callback. */
function callbackServer(port: number): Promise<{ server: Server; url: string; query: Promise<URLSearchParams> }> {
  let deliver!: (q: URLSearchParams) => void;
  const query = new Promise<URLSearchParams>((resolve) => (deliver = resolve));
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') return void res.writeHead(404).end();
    const failed = url.searchParams.get('error');
    res.writeHead(failed ? 400 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(failed ? `<!doctype html><p>Sign-in failed: ${failed.replace(/[<>&"]/g, '')}</p>` : DONE_PAGE);
    deliver(url.searchParams);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
      resolve({ server, url, query });
    });
  });
}

function deadline(ms: number): Promise<never> {
  return new Promise((_, reject) =>
    setTimeout(
      () => reject(new Error(`no answer from the browser within ${ms / 1000} s; run the login again`)),
      ms,
    ).unref(),
  );
}

/**
 * What the server says when asked without a token: the scope it wants and where its
 * protected-resource metadata is (WWW-Authenticate), as a first connect would learn them.
 */
async function challenge(url: string): Promise<{ scope?: string; resourceMetadataUrl?: URL }> {
  const initialize = {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'toolbelt', version: '0.1.0' },
  };
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: initialize }),
  }).catch(() => undefined);
  await res?.body?.cancel().catch(() => {});
  if (res?.status !== 401) return {};
  const { scope, resourceMetadataUrl } = extractWWWAuthenticateParams(res);
  return { ...(scope ? { scope } : {}), ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}) };
}

function registeredFor(client: OAuthClientInformationMixed, url: string): boolean {
  return !('redirect_uris' in client) || !Array.isArray(client.redirect_uris) || client.redirect_uris.includes(url);
}

/** Signs in to one server; resolves once its tokens are stored. */
export async function login(opts: LoginOptions): Promise<void> {
  const { server: name, config } = opts;
  if (!config.url) throw new Error(`MCP server "${name}" has no "url": only http and sse servers sign in`);
  if (config.oauth === false)
    throw new Error(`MCP server "${name}" has "oauth": false in the config; remove it to sign in`);
  const { server, url, query } = await callbackServer(opts.port ?? 0);
  try {
    const store = new OAuthStore(opts.dir, name, config.url);
    // A client registered for another redirect URL (an earlier login's port) is registered afresh.
    store.update(({ client, ...s }) => ({
      ...s,
      redirectUrl: url,
      ...(client && registeredFor(client, url) ? { client } : {}),
    }));
    const provider = new StoredOAuthProvider({
      server: name,
      store,
      ...(config.oauth ? { settings: config.oauth } : {}),
      login: { redirectUrl: url, open: opts.open },
    });
    const asked = await challenge(config.url);
    const scope = (config.oauth ? config.oauth.scope : undefined) ?? store.read().pendingScope ?? asked.scope;
    const where = {
      serverUrl: config.url,
      ...(scope ? { scope } : {}),
      ...(asked.resourceMetadataUrl ? { resourceMetadataUrl: asked.resourceMetadataUrl } : {}),
    };
    // A wider scope takes a new authorization; refreshing would only renew the narrow one.
    if (store.read().pendingScope) store.update(({ tokens: _narrow, ...s }) => s);
    const first = await auth(provider, where);
    if (first === 'AUTHORIZED') return;
    const answer = await Promise.race([query, deadline(opts.timeoutMs ?? 5 * 60_000)]);
    const error = answer.get('error');
    if (error)
      throw new Error(
        `the authorization server refused: ${error}${answer.get('error_description') ? ` (${answer.get('error_description')})` : ''}`,
      );
    if (answer.get('state') !== provider.sentState)
      throw new Error(
        'the answer from the browser does not belong to this login (state mismatch); run the login again',
      );
    const code = answer.get('code');
    if (!code) throw new Error('the browser came back without an authorization code; run the login again');
    const done = await auth(provider, { ...where, authorizationCode: code });
    if (done !== 'AUTHORIZED') throw new Error('the authorization server did not issue tokens; run the login again');
    store.update(({ pendingScope: _done, ...s }) => s);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}
