// A TCP proxy to a server (PostgreSQL here) that a test can switch off and on, on the same port:
// off, it drops every open connection and every new one, as a lost database does; black-holed, it
// keeps every connection open and accepts new ones but passes nothing either way, as a dead route does.
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface SwitchProxy {
  port: number;
  off(): void;
  /** Connections stay open, new ones are accepted, and no byte goes through until on(). */
  blackhole(): void;
  on(): void;
  close(): Promise<void>;
}

export async function startSwitchProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<SwitchProxy> {
  const sockets = new Set<Socket>();
  let mode: 'up' | 'off' | 'hole' = 'up';
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
  };
  const server = createServer((client) => {
    track(client);
    if (mode === 'off') return void client.destroy();
    if (mode === 'hole') return; // accepted, never answered: destroyed by close() or off()
    const upstream = connect(targetPort, targetHost);
    track(upstream);
    // Bytes pass only while the proxy is up; black-holed, they are read and dropped.
    client.on('data', (b) => mode === 'up' && upstream.write(b));
    upstream.on('data', (b) => mode === 'up' && client.write(b));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    off() {
      mode = 'off';
      for (const s of sockets) s.destroy();
    },
    blackhole() {
      mode = 'hole';
    },
    on() {
      // Connections that lived through a black hole lost bytes: they are dropped, as a reset route does.
      if (mode === 'hole') for (const s of sockets) s.destroy();
      mode = 'up';
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
