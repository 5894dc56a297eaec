import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { describeCause, isConnectionFailure, unreachableMessage } from './cause.js';

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function fetchError(url: string): Promise<unknown> {
  return fetch(url).then(
    () => undefined,
    (err: unknown) => err,
  );
}

describe('describeCause', () => {
  it('names the refused connection under fetch\'s "fetch failed"', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/`;
    const err = await fetchError(url);
    expect((err as Error).message).toBe('fetch failed');
    expect(isConnectionFailure(err)).toBe(true);
    expect(describeCause(err)).toBe('connection refused (ECONNREFUSED)');
    expect(unreachableMessage('the gateway', url, err)).toBe(
      `cannot reach the gateway at ${url}: connection refused (ECONNREFUSED)`,
    );
  });

  it('names a host that does not resolve', async () => {
    const err = await fetchError('http://no-such-host.invalid/');
    expect(describeCause(err)).toMatch(/\((ENOTFOUND|EAI_AGAIN)\)$/);
  });

  it('falls back to the innermost message that says something', () => {
    const err = new TypeError('fetch failed', { cause: new Error('bad certificate') });
    expect(describeCause(err)).toBe('bad certificate');
    expect(describeCause(new Error('plain'))).toBe('plain');
    expect(isConnectionFailure(new Error('plain'))).toBe(false);
  });
});
