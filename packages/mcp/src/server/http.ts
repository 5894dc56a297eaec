// A ToolServer over Streamable HTTP: one session (SDK Server + transport) per client, bound to
// 127.0.0.1 by default, Host and Origin checked against DNS rebinding, optional bearer token.
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { assertSafeBind, HostCheck } from '@toolbelt/core/net';
import type { ToolServer } from './server.js';

export interface HttpServeOptions {
  /** 0 picks a free port. */
  port: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default /mcp. */
  path?: string;
  /** When set, every request needs `Authorization: Bearer <token>`. Required on a non-loopback host. */
  token?: string;
  /** Host names accepted in the Host header besides localhost, 127.0.0.1, ::1 and the bound host. */
  allowedHosts?: string[];
  /** Origins (scheme://host[:port]) accepted besides http(s) pages on an accepted host. */
  allowedOrigins?: string[];
  /** Largest request body; default 4 MiB. */
  maxBodyBytes?: number;
  /** A session with no request for this long is closed (the client starts a new one). Default 1 h. */
  sessionIdleMs?: number;
}

export interface HttpHandle {
  url: string;
  port: number;
  close(): Promise<void>;
}

function sendError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

const digest = (secret: string) => createHash('sha256').update(secret, 'utf8').digest();

async function readJson(
  req: IncomingMessage,
  limit: number,
): Promise<{ ok: true; value: unknown } | { ok: false; status: number; message: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return { ok: false, status: 413, message: `request body is over ${limit} bytes` };
    chunks.push(chunk as Buffer);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch (err) {
    return { ok: false, status: 400, message: `request body is not valid JSON: ${(err as Error).message}` };
  }
}

type Refusal = { status: number; message: string; headers?: Record<string, string> };

/** Host and Origin (core's HostCheck, as the gateway's), then the bearer token: a reason to refuse a request, or undefined. */
function requestGate(opts: HttpServeOptions, host: string): (req: IncomingMessage) => Refusal | undefined {
  const hosts = new HostCheck({
    allowedHosts: opts.allowedHosts ?? [],
    allowedOrigins: opts.allowedOrigins ?? [],
    boundHost: host,
    howToAllow: (name) => `start toolbelt mcp with --allow-host ${name}`,
  });
  // Only the token's digest is kept, and compared in constant time at a fixed length.
  const expected = opts.token === undefined ? undefined : digest(opts.token);
  return (req) => {
    const bad = hosts.check(req.headers.host, req.headers.origin);
    if (bad) return { status: 403, message: bad.message };
    if (expected) {
      const auth = req.headers.authorization ?? '';
      const given = auth.startsWith('Bearer ') ? auth.slice(7).trim() : '';
      if (!given || !timingSafeEqual(digest(given), expected))
        return {
          status: 401,
          message: 'missing or wrong bearer token: send "Authorization: Bearer <token>"',
          headers: { 'www-authenticate': 'Bearer' },
        };
    }
    return undefined;
  };
}

/** Clients that vanish without DELETE would otherwise keep their session forever. */
function closeIdle(
  sessions: Map<string, { close(): Promise<void> }>,
  lastSeen: Map<string, number>,
  idleMs: number,
): NodeJS.Timeout {
  const sweeper = setInterval(
    () => {
      const now = Date.now();
      for (const [id, seen] of lastSeen) if (now - seen > idleMs) void sessions.get(id)?.close();
    },
    Math.min(idleMs, 60_000),
  );
  sweeper.unref();
  return sweeper;
}

function listenOn(http: ReturnType<typeof createServer>, port: number | undefined, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
}

/** A session's transport: it joins `sessions` once initialize gave it an id, and leaves when it closes. */
function newSession(
  Transport: typeof StreamableHTTPServerTransport,
  sessions: Map<string, StreamableHTTPServerTransport>,
  lastSeen: Map<string, number>,
): StreamableHTTPServerTransport {
  const transport = new Transport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => {
      sessions.set(id, transport);
      lastSeen.set(id, Date.now());
    },
  });
  transport.onclose = () => {
    if (!transport.sessionId) return;
    sessions.delete(transport.sessionId);
    lastSeen.delete(transport.sessionId);
  };
  return transport;
}

export async function serveHttp(tools: ToolServer, opts: HttpServeOptions): Promise<HttpHandle> {
  // Loaded here, not at the top: stdio use of this package never pays for the HTTP transport.
  const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const host = opts.host ?? '127.0.0.1';
  const path = opts.path ?? '/mcp';
  const limit = opts.maxBodyBytes ?? 4 * 1024 * 1024;
  assertSafeBind(host, Boolean(opts.token), {
    what: 'a token',
    howTo: 'Require a bearer token (toolbelt mcp --token-env VAR, naming an environment variable that holds one)',
  });
  const refuse = requestGate(opts, host);
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const lastSeen = new Map<string, number>();
  const sweeper = closeIdle(sessions, lastSeen, opts.sessionIdleMs ?? 60 * 60_000);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Host and Origin first, on every path: a rebinding page learns nothing, not even a 404.
    const refused = refuse(req);
    if (refused) return sendError(res, refused.status, refused.message, refused.headers);
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== path) return sendError(res, 404, `not found; the MCP endpoint is ${path}`);
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing) lastSeen.set(sessionId as string, Date.now());
    if (req.method !== 'POST') {
      if (!existing)
        return sendError(
          res,
          sessionId ? 404 : 400,
          sessionId ? 'session not found; initialize a new session' : 'missing mcp-session-id header',
        );
      return existing.handleRequest(req, res);
    }
    const body = await readJson(req, limit);
    if (!body.ok) return sendError(res, body.status, body.message);
    if (existing) return existing.handleRequest(req, res, body.value);
    if (sessionId) return sendError(res, 404, 'session not found; initialize a new session');
    if (!isInitializeRequest(body.value))
      return sendError(res, 400, 'no session: the first request must be initialize');
    const transport = newSession(StreamableHTTPServerTransport, sessions, lastSeen);
    await tools.connect(transport);
    await transport.handleRequest(req, res, body.value);
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((err) => sendError(res, 500, `internal error: ${(err as Error).message}`));
  });
  await listenOn(http, opts.port, host);
  const port = (http.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}${path}`,
    port,
    async close() {
      clearInterval(sweeper);
      await Promise.allSettled([...sessions.values()].map((t) => t.close()));
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
