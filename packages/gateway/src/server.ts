// Listening: loopback by default, and never on another address without tokens.
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { assertSafeBind as coreAssertSafeBind } from '@toolbelt/core/net';

export { DEFAULT_HOST, DEFAULT_PORT } from './config.js';

export { BindRefusedError, isLoopback } from '@toolbelt/core/net';

/** Refuses an address other than loopback when the gateway has no tokens. */
export function assertSafeBind(host: string, tokens: boolean): void {
  coreAssertSafeBind(host, tokens, {
    what: 'tokens',
    howTo: 'Add gateway.tokens to the config (or set TOOLBELT_GATEWAY_TOKEN)',
  });
}

export interface Listening {
  url: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

export function listen(
  fetchHandler: (req: Request) => Response | Promise<Response>,
  host: string,
  port: number,
): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    const server: ServerType = serve({ fetch: fetchHandler, hostname: host, port }, (info: AddressInfo) => {
      server.off('error', onError);
      const shown = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      resolve({
        url: `http://${shown}:${info.port}`,
        host: info.address,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            // Event streams and keep-alive connections would hold close() open forever.
            (server as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      });
    });
    server.once('error', onError);
  });
}
