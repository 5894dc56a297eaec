// A gateway that is not there: the error names its URL and why, not a bare "fetch failed".
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { GatewayClient, GatewayUnreachableError } from './index.js';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('GatewayClient against a dead gateway', () => {
  it('names the URL and the refused connection', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const client = new GatewayClient({ url: `${url}/` });
    const err = await client.health().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayUnreachableError);
    expect((err as Error).message).toBe(`cannot reach the gateway at ${url}: connection refused (ECONNREFUSED)`);
    expect((err as Error).cause).toBeInstanceOf(TypeError);
  });

  it('a cancelled request stays a cancellation', async () => {
    const client = new GatewayClient({ url: `http://127.0.0.1:${await closedPort()}` });
    const ac = new AbortController();
    ac.abort();
    const err = await client.tools().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayUnreachableError);
    const aborted = await client.fetch(client.url('/healthz'), { signal: ac.signal }).catch((e: unknown) => e);
    expect((aborted as Error).name).toBe('AbortError');
  });
});
