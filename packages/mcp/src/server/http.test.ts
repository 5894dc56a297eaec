// ToolServer over Streamable HTTP: sessions with the SDK client, DNS-rebinding checks, bearer token.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, Executor, Policy, ToolRegistry } from '@toolbelt/core';
import { BindRefusedError, HostConfigError } from '@toolbelt/core/net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { serveHttp, type HttpHandle, type HttpServeOptions } from './http.js';
import { ToolServer } from './server.js';

const handles: HttpHandle[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const h of handles.splice(0)) await h.close();
});

async function serve(opts: Partial<HttpServeOptions> = {}): Promise<HttpHandle> {
  const registry = new ToolRegistry().register(
    defineTool({
      name: 'greet',
      description: 'Says hello.',
      input: z.object({ name: z.string() }),
      effect: 'read',
      execute: ({ name }) => `hello ${name}`,
    }),
  );
  const server = new ToolServer({ executor: new Executor({ registry, policy: new Policy({ mode: 'safe' }) }) });
  const handle = await serveHttp(server, { port: 0, ...opts });
  handles.push(handle);
  return handle;
}

async function connect(url: string, headers?: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), headers ? { requestInit: { headers } } : {}));
  clients.push(client);
  return client;
}

/** A raw POST, so the Host and Origin headers can be anything. */
function rawPost(
  port: number,
  headers: Record<string, string>,
  path = '/mcp',
): Promise<{ status: number; body: string }> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('serveHttp', () => {
  it('binds to 127.0.0.1 and serves sessions to the SDK client', async () => {
    const handle = await serve();
    expect(handle.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const a = await connect(handle.url);
    const b = await connect(handle.url);
    expect((await a.listTools()).tools.map((t) => t.name)).toEqual(['greet']);
    const result = await b.callTool({ name: 'greet', arguments: { name: 'http' } });
    expect(result.content).toEqual([{ type: 'text', text: 'hello http' }]);
  });

  it('refuses a Host that is not local (DNS rebinding)', async () => {
    const handle = await serve();
    const res = await rawPost(handle.port, { host: `evil.example:${handle.port}` });
    expect(res.status).toBe(403);
    expect(res.body).toContain('Host \\"evil.example');
    expect((await rawPost(handle.port, { host: `localhost:${handle.port}` })).status).toBe(200);
  });

  it('checks Host before anything else, on every path, with the same message as the gateway', async () => {
    const handle = await serve({ allowedHosts: ['mcp.internal:8443'] });
    const other = await rawPost(handle.port, { host: 'attacker.example' }, '/elsewhere');
    expect(other.status).toBe(403);
    expect(JSON.parse(other.body).error.message).toMatch(
      /^Host "attacker\.example" is not allowed: .*DNS rebinding.* start toolbelt mcp with --allow-host attacker\.example\.$/,
    );
    expect((await rawPost(handle.port, { host: 'mcp.internal' })).status).toBe(200);
    expect((await rawPost(handle.port, { host: 'mcp.internal' }, '/elsewhere')).status).toBe(404);
    expect((await rawPost(handle.port, { origin: 'null' })).status).toBe(403);
    expect((await rawPost(handle.port, { host: 'localhost@attacker.example' })).status).toBe(403);
  });

  it('refuses to listen beyond loopback without a token, and a malformed allowed host', async () => {
    await expect(serve({ host: '0.0.0.0' })).rejects.toThrow(BindRefusedError);
    await expect(serve({ host: '0.0.0.0' })).rejects.toThrow(
      'refusing to listen on 0.0.0.0 without a token: anyone who can reach it could run tools.',
    );
    await expect(serve({ allowedHosts: ['not a host'] })).rejects.toThrow(HostConfigError);
    const open = await serve({ host: '0.0.0.0', token: 'a-long-enough-test-token-123' });
    expect((await rawPost(open.port, { authorization: 'Bearer a-long-enough-test-token-123' })).status).toBe(200);
  });

  it('refuses a foreign Origin and accepts a local or allowed one', async () => {
    const handle = await serve({ allowedOrigins: ['https://app.example.com'] });
    expect((await rawPost(handle.port, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await rawPost(handle.port, { origin: `http://localhost:5173` })).status).toBe(200);
    expect((await rawPost(handle.port, { origin: 'https://app.example.com' })).status).toBe(200);
  });

  it('requires the bearer token when one is set', async () => {
    const token = 'a-long-enough-test-token-123';
    const handle = await serve({ token });
    const missing = await rawPost(handle.port, {});
    expect(missing.status).toBe(401);
    expect(missing.body).toContain('bearer token');
    expect((await rawPost(handle.port, { authorization: 'Bearer wrong-token' })).status).toBe(401);
    const client = await connect(handle.url, { authorization: `Bearer ${token}` });
    expect((await client.listTools()).tools).toHaveLength(1);
  });

  it('closes a session that has been idle too long, so the client starts a new one', async () => {
    // Generous: the client's own handshake requests must not come slower than this.
    const handle = await serve({ sessionIdleMs: 500 });
    const transport = new StreamableHTTPClientTransport(new URL(handle.url));
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(transport);
    clients.push(client);
    const id = transport.sessionId!;
    await new Promise((r) => setTimeout(r, 1_500));
    const res = await fetch(handle.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': id,
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(res.status).toBe(404);
  });

  it('answers a request without a session, or with an unknown one, with a clear error', async () => {
    const handle = await serve();
    const res = await new Promise<{ status: number; body: string }>((resolve) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: handle.port,
          path: '/mcp',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'mcp-session-id': 'nope' },
        },
        (r) => {
          let text = '';
          r.on('data', (d) => (text += d));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body: text }));
        },
      );
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    });
    expect(res.status).toBe(404);
    expect(res.body).toContain('session not found');
    const bad = await fetch(handle.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('not valid JSON');
  });

  it('answers tools/call arguments nested 100,000 deep with an isError INVALID_PARAMS result, and keeps the session', async () => {
    const handle = await serve();
    const transport = new StreamableHTTPClientTransport(new URL(handle.url));
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(transport);
    clients.push(client);
    // Sent by hand: the SDK client would overflow serializing such arguments itself.
    const deep = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    const res = await fetch(handle.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': transport.sessionId!,
        'mcp-protocol-version': '2025-06-18',
      },
      body: `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"greet","arguments":{"name":${deep}}}}`,
    });
    const text = await res.text();
    const message = JSON.parse(text.startsWith('{') ? text : /^data: (.*)$/m.exec(text)![1]);
    expect(message.result.isError).toBe(true);
    expect(message.result.content[0].text).toBe(
      'Invalid parameters for greet: the input nests objects and arrays more than 64 levels deep; send a flatter value.',
    );
    expect((await client.callTool({ name: 'greet', arguments: { name: 'after' } })).content).toEqual([
      { type: 'text', text: 'hello after' },
    ]);
  });
});
