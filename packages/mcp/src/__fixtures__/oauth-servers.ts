// A small OAuth 2.1 authorization server and an MCP server it protects, on 127.0.0.1, speaking the
// MCP authorization flow: protected-resource metadata, authorization-server metadata, dynamic
// client registration, an authorization endpoint that approves at once (the "browser" is a test),
// PKCE (S256) and the resource parameter checked at the token endpoint, refresh tokens.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

interface Grant {
  clientId: string;
  challenge: string;
  redirectUri: string;
  resource: string;
  scope: string;
}

const token = () => randomBytes(16).toString('hex');
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

async function body(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export class OAuthServers {
  as!: string;
  mcp!: string;
  readonly registered: string[] = [];
  readonly tokenRequests: Record<string, string>[] = [];
  readonly authorizeRequests: URLSearchParams[] = [];
  private readonly codes = new Map<string, Grant>();
  private readonly access = new Map<string, { scope: string; expired: boolean }>();
  private readonly refresh = new Map<string, string>();
  private readonly servers: Server[] = [];

  async start(): Promise<this> {
    const as = createServer(
      (req, res) => void this.authorization(req, res).catch((e) => json(res, 500, { error: String(e) })),
    );
    const rs = createServer(
      (req, res) => void this.resource(req, res).catch((e) => json(res, 500, { error: String(e) })),
    );
    this.servers.push(as, rs);
    this.as = await listen(as);
    this.mcp = `${await listen(rs)}/mcp`;
    return this;
  }

  /** Every access token handed out so far stops working (refresh tokens still do). */
  expireAccessTokens(): void {
    for (const t of this.access.values()) t.expired = true;
  }

  async close(): Promise<void> {
    for (const s of this.servers) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  }

  private async authorization(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url!, this.as);
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      return json(res, 200, {
        issuer: this.as,
        authorization_endpoint: `${this.as}/authorize`,
        token_endpoint: `${this.as}/token`,
        registration_endpoint: `${this.as}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_post'],
      });
    }
    if (url.pathname === '/register' && req.method === 'POST') {
      const meta = JSON.parse(await body(req)) as Record<string, unknown>;
      const clientId = `client-${this.registered.length + 1}`;
      this.registered.push(clientId);
      return json(res, 201, { ...meta, client_id: clientId, client_id_issued_at: Math.floor(Date.now() / 1000) });
    }
    if (url.pathname === '/authorize') {
      const q = url.searchParams;
      this.authorizeRequests.push(q);
      if (q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256')
        return json(res, 400, { error: 'invalid_request' });
      const code = token();
      const grant = {
        clientId: q.get('client_id')!,
        challenge: q.get('code_challenge')!,
        redirectUri: q.get('redirect_uri')!,
        resource: q.get('resource') ?? '',
      };
      this.codes.set(code, { ...grant, scope: q.get('scope') ?? 'read' });
      const back = new URL(grant.redirectUri);
      back.searchParams.set('code', code);
      if (q.get('state')) back.searchParams.set('state', q.get('state')!);
      return void res.writeHead(302, { location: back.href }).end();
    }
    if (url.pathname === '/token' && req.method === 'POST')
      return this.tokenEndpoint(Object.fromEntries(new URLSearchParams(await body(req))), res);
    json(res, 404, { error: 'not_found' });
  }

  private tokenEndpoint(form: Record<string, string>, res: ServerResponse): void {
    this.tokenRequests.push(form);
    let scope: string;
    if (form.grant_type === 'authorization_code') {
      const grant = this.codes.get(form.code);
      this.codes.delete(form.code);
      const bad =
        !grant ||
        grant.clientId !== form.client_id ||
        s256(form.code_verifier ?? '') !== grant.challenge ||
        grant.redirectUri !== form.redirect_uri;
      if (bad || form.resource !== this.mcp) return json(res, 400, { error: 'invalid_grant' });
      scope = grant.scope;
    } else if (form.grant_type === 'refresh_token' && this.refresh.has(form.refresh_token)) {
      scope = this.refresh.get(form.refresh_token)!;
    } else return json(res, 400, { error: 'invalid_grant' });
    const accessToken = token();
    const refreshToken = token();
    this.access.set(accessToken, { scope, expired: false });
    this.refresh.set(refreshToken, scope);
    json(res, 200, {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: refreshToken,
      scope,
    });
  }

  private async resource(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url!, this.mcp);
    const metadataUrl = `${url.origin}/.well-known/oauth-protected-resource/mcp`;
    if (url.pathname.startsWith('/.well-known/oauth-protected-resource')) {
      return json(res, 200, { resource: this.mcp, authorization_servers: [this.as], scopes_supported: ['read'] });
    }
    const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const grant = this.access.get(bearer);
    if (!grant || grant.expired)
      return json(
        res,
        401,
        { error: 'invalid_token' },
        { 'www-authenticate': `Bearer resource_metadata="${metadataUrl}"` },
      );
    const server = new McpServer({ name: 'protected', version: '1.0.0' });
    server.registerTool('whoami', { description: 'Says which scope the token has.', inputSchema: {} }, async () => ({
      content: [{ type: 'text', text: `scope ${grant.scope}` }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    res.on('close', () => void server.close());
    await transport.handleRequest(req, res, req.method === 'POST' ? JSON.parse(await body(req)) : undefined);
  }
}
