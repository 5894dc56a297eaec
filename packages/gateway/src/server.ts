// Listening: loopback by default, and never on another address without tokens.
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 7077;

export class BindRefusedError extends Error {}

export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || h === '::ffff:127.0.0.1';
}

export function assertSafeBind(host: string, tokens: boolean): void {
  if (isLoopback(host) || tokens) return;
  throw new BindRefusedError(
    `refusing to listen on ${host} without tokens: anyone who can reach it could run tools. Add gateway.tokens to the config (or set TOOLBELT_GATEWAY_TOKEN), or listen on ${DEFAULT_HOST}.`,
  );
}

export interface Listening {
  url: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

export function listen(fetchHandler: (req: Request) => Response | Promise<Response>, host: string, port: number): Promise<Listening> {
  return new Promise((resolve, reject) => {
    let server: ServerType;
    const onError = (err: Error) => reject(err);
    server = serve({ fetch: fetchHandler, hostname: host, port }, (info: AddressInfo) => {
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
