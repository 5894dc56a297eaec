// A TCP proxy to a server (PostgreSQL here) that a test can switch off and on, on the same port:
// off, it drops every open connection and every new one, as a lost database does.
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface SwitchProxy {
  port: number;
  off(): void;
  on(): void;
  close(): Promise<void>;
}

export async function startSwitchProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<SwitchProxy> {
  const sockets = new Set<Socket>();
  let up = true;
  const server = createServer((client) => {
    client.on('error', () => {});
    if (!up) return void client.destroy();
    const upstream = connect(targetPort, targetHost);
    upstream.on('error', () => {});
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    off() {
      up = false;
      for (const s of sockets) s.destroy();
    },
    on() {
      up = true;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
