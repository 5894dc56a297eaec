// The SDK's own behaviour against a scripted HTTP server: reconnecting event streams that resume
// with Last-Event-ID, refusals that end a stream, and errors from servers that are not the gateway.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayClient } from './client.js';
import { GatewayError } from './errors.js';

type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void;
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function scripted(handler: Handler): Promise<{ url: string; requests: IncomingMessage[] }> {
  const requests: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    requests.push(req);
    handler(req, res, requests.length);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  close = () =>
    new Promise((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

const frame = (id: number, type: string, data: object) =>
  `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify({ type, ts: 1, sessionId: 's', ...data })}\n\n`;

describe('GatewayClient event streams', () => {
  it('reconnects after a failure or a closed stream and resumes after the last event it got', async () => {
    const { url, requests } = await scripted((_req, res, n) => {
      if (n === 1)
        return void res
          .writeHead(503, { 'content-type': 'application/json' })
          .end('{"error":{"code":"INTERNAL","message":"starting"}}');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (n === 2) {
        res.write('retry: 10\n\n');
        res.write(frame(5, 'agent.state', { state: 'idle' }));
        res.end(frame(6, 'agent.state', { state: 'tool_execution' }));
      } else {
        res.write(`id: 6\nevent: ready\ndata: {"lastEventId":6}\n\n`);
        res.write(frame(7, 'registry.changed', { change: 'added', name: 'x' }));
      }
    });
    const client = new GatewayClient({ url, token: 'tok-0123456789abcdef' });
    const got: number[] = [];
    const readies: number[] = [];
    for await (const e of client.events({ lastEventId: 4, onReady: (id) => readies.push(id), maxBackoffMs: 20 })) {
      got.push(e.id);
      if (e.id === 7) break;
    }
    expect(got).toEqual([5, 6, 7]);
    expect(readies).toEqual([6]);
    expect(requests.map((r) => r.headers['last-event-id'])).toEqual(['4', '4', '6']);
    expect(requests[0].headers.authorization).toBe('Bearer tok-0123456789abcdef');
  });

  it('ends the stream with the refusal when the gateway says no', async () => {
    const { url, requests } = await scripted((_req, res) => {
      res
        .writeHead(403, { 'content-type': 'application/json' })
        .end('{"error":{"code":"FORBIDDEN","message":"this token lacks the \\"events\\" role"}}');
    });
    const client = new GatewayClient({ url });
    const err = await (async () => {
      for await (const _ of client.events()) void _;
    })().catch((e) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ status: 403, code: 'FORBIDDEN', message: 'this token lacks the "events" role' });
    expect(requests).toHaveLength(1);
  });

  it('stops when its signal aborts', async () => {
    const { url } = await scripted((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(frame(1, 'agent.state', { state: 'idle' }));
    });
    const controller = new AbortController();
    const got: number[] = [];
    for await (const e of new GatewayClient({ url }).events({ signal: controller.signal })) {
      got.push(e.id);
      controller.abort();
    }
    expect(got).toEqual([1]);
  });
});

describe('GatewayClient requests', () => {
  it("reports an answer that is not the gateway's JSON with its status and text", async () => {
    const { url } = await scripted(
      (_req, res) => void res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>'),
    );
    const err = await new GatewayClient({ url }).tools().catch((e) => e);
    expect(err).toMatchObject({ status: 502, code: 'HTTP_ERROR', message: 'HTTP 502: <h1>Bad gateway</h1>' });
  });

  it('returns the ToolResult of a 404 or 422 answer instead of throwing', async () => {
    const body = {
      status: 'error',
      callId: 'c',
      tool: 'ecko',
      content: [{ type: 'text', text: 'Unknown tool' }],
      durationMs: 0,
      error: { code: 'UNKNOWN_TOOL', message: 'Unknown tool', recoverable: true },
    };
    const { url, requests } = await scripted(
      (_req, res) => void res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
    );
    const client = new GatewayClient({ url, agentId: 'a' });
    expect(await client.call('run 1', 'ecko', { x: 1 }, { callId: 'c' })).toEqual(body);
    expect(requests[0].url).toBe('/api/runs/run%201/tool-calls');
    expect(() => new GatewayClient({ url }).call('r', 'echo')).toThrow(/needs an agentId/);
  });
});
