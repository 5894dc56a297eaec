// Tool calls to an MCP server over Streamable HTTP are sent again when the request failed for a
// passing reason. The server is the SDK's own (McpServer + StreamableHTTPServerTransport) behind a
// Node HTTP server that fails the first tools/call requests as told.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { textOf, ToolRegistry } from '@toolbelt/core';
import { type HttpRetryOptions } from '@toolbelt/core/net';
import { executorFor } from '../__fixtures__/servers.js';
import { McpManager } from './manager.js';

type Failure = (req: IncomingMessage, res: ServerResponse) => void;
const reset: Failure = (req) => req.socket.destroy();
const status =
  (code: number, headers: Record<string, string> = {}): Failure =>
  (_req, res) =>
    void res.writeHead(code, headers).end(`failed with ${code}`);

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

/** An SDK server with one tool; tools/call requests meet `failures` in turn before it sees them. */
async function flakyServer(failures: Failure[]): Promise<{ url: string; calls: number[]; ran: () => number }> {
  let ran = 0;
  const mcp = new McpServer({ name: 'flaky', version: '1.0.0' });
  mcp.registerTool('echo', { description: 'Echoes.', inputSchema: { text: z.string() } }, async ({ text }) => {
    ran++;
    return { content: [{ type: 'text', text: `echo ${text}` }] };
  });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await mcp.connect(transport);
  const calls: number[] = [];
  const http: Server = createServer(async (req, res) => {
    let body: unknown;
    if (req.method === 'POST') {
      let text = '';
      for await (const chunk of req) text += chunk;
      body = JSON.parse(text);
    }
    if ((body as { method?: string })?.method === 'tools/call') {
      calls.push(Date.now());
      const fail = failures[calls.length - 1];
      if (fail) return fail(req, res);
    }
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  open.push({
    close: async () => {
      await mcp.close();
      http.closeAllConnections();
      await new Promise((r) => http.close(r));
    },
  });
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, calls, ran: () => ran };
}

async function connect(url: string, retry: HttpRetryOptions = { baseDelayMs: 1 }) {
  const registry = new ToolRegistry();
  const manager = new McpManager({ servers: { flaky: { url, transport: 'http', retry } }, registry });
  await manager.start();
  const executor = executorFor(registry);
  open.push({ close: async () => (await executor.close(), await manager.close()) });
  return executor;
}

describe('MCP over HTTP: retries', () => {
  it('a tool call survives a dropped connection, a 503 and a 502, and runs once', async () => {
    const s = await flakyServer([reset, status(503), status(502)]);
    const executor = await connect(s.url);
    const r = await executor.call({ tool: 'flaky__echo', input: { text: 'hi' } });
    expect(r.status, textOf(r)).toBe('success');
    expect(textOf(r)).toBe('echo hi');
    expect(s.calls).toHaveLength(4);
    expect(s.ran()).toBe(1);
  });

  it('waits out a 429 for its Retry-After of 1 s', async () => {
    const s = await flakyServer([status(429, { 'retry-after': '1' })]);
    const executor = await connect(s.url);
    expect((await executor.call({ tool: 'flaky__echo', input: { text: 'later' } })).status).toBe('success');
    expect(s.calls).toHaveLength(2);
    // The backoff is 1 ms here: only the server's Retry-After makes the gap this long.
    expect(s.calls[1] - s.calls[0]).toBeGreaterThanOrEqual(900);
  });

  it('sends once with retry.attempts 0, and the call fails', async () => {
    const s = await flakyServer([status(503)]);
    const executor = await connect(s.url, { attempts: 0 });
    expect((await executor.call({ tool: 'flaky__echo', input: { text: 'x' } })).status).toBe('error');
    expect(s.calls).toHaveLength(1);
    expect(s.ran()).toBe(0);
  });
});
