// Local HTTP servers for the web tests: 127.0.0.1, an ephemeral port, every request recorded.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestServer {
  port: number;
  /** http://127.0.0.1:PORT */
  origin: string;
  /** Paths requested so far, in order. */
  hits: string[];
  /** Request headers of the last request. */
  lastHeaders: IncomingMessage['headers'];
  close(): Promise<void>;
}

export async function serve(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  host = '127.0.0.1',
): Promise<TestServer> {
  const hits: string[] = [];
  const state = { lastHeaders: {} as IncomingMessage['headers'] };
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    state.lastHeaders = req.headers;
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = host.includes(':') ? `http://[${host}]:${port}` : `http://${host}:${port}`;
  return {
    port,
    origin,
    hits,
    get lastHeaders() {
      return state.lastHeaders;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
