// A local HTTP server that speaks a provider's API for the official SDKs: each request gets the
// next scripted answer (an SSE stream or a JSON body), and every request is kept for assertions.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** An SSE stream, a JSON body, or a stream that starts and never ends (a model that hangs). */
export type Scripted = { sse: unknown[]; named?: boolean } | { json: unknown; status?: number } | { hang: true };

export interface ProviderServer {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

/** Events as SSE: `named` writes Anthropic's `event:` lines from each payload's type; `[DONE]` ends OpenAI's Chat stream. */
function sse(events: unknown[], named: boolean): string {
  return events
    .map((e) => {
      if (e === '[DONE]') return 'data: [DONE]\n\n';
      const type = (e as { type?: string }).type;
      return `${named && type ? `event: ${type}\n` : ''}data: ${JSON.stringify(e)}\n\n`;
    })
    .join('');
}

export async function providerServer(script: Scripted[]): Promise<ProviderServer> {
  const requests: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: raw ? JSON.parse(raw) : undefined,
      });
      const next = script.shift();
      if (!next) {
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'no scripted answer left' } }));
      } else if ('hang' in next) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.flushHeaders();
      } else if ('sse' in next) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.end(sse(next.sse, next.named ?? false));
      } else {
        res.writeHead(next.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(next.json));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
