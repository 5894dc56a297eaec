// HTTP retries against a real local server that fails N times, then answers.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isConnectionReset, parseRetryAfter, retryableStatus, retryingFetch } from './retry.js';

type Step = (req: IncomingMessage, res: ServerResponse) => void;
const reset: Step = (req) => req.socket.destroy();
const status =
  (code: number, headers: Record<string, string> = {}): Step =>
  (_req, res) => {
    res.writeHead(code, headers);
    res.end(`status ${code}`);
  };
const ok: Step = status(200);

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** Answers the i-th request with steps[i] (the last step from then on); records when each came. */
async function serve(steps: Step[]): Promise<{ url: string; times: number[] }> {
  const times: number[] = [];
  const server = createServer((req, res) => {
    times.push(Date.now());
    steps[Math.min(times.length - 1, steps.length - 1)](req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push({ close: () => (server.closeAllConnections(), server.close()) });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, times };
}

const quick = { baseDelayMs: 1 };

describe('HTTP retry rules', () => {
  it('retries 408, 429 and 5xx but 501 and 505, and no other status', () => {
    expect([408, 429, 500, 502, 503, 504, 599].every(retryableStatus)).toBe(true);
    expect([200, 301, 400, 401, 403, 404, 409, 422, 501, 505].some(retryableStatus)).toBe(false);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('1', now)).toBe(1000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-3', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('knows a reset by its code, also as the cause of a fetch error', () => {
    expect(isConnectionReset(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isConnectionReset(new TypeError('fetch failed', { cause: { code: 'UND_ERR_SOCKET' } }))).toBe(true);
    expect(isConnectionReset(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }))).toBe(false);
  });
});

describe('retryingFetch', () => {
  it('retries a reset connection and a 503, and hands back the answer that came', async () => {
    const s = await serve([reset, status(503), ok]);
    const res = await retryingFetch(fetch, quick)(s.url);
    expect([res.status, await res.text()]).toEqual([200, 'status 200']);
    expect(s.times).toHaveLength(3);
  });

  it('waits as long as Retry-After says before sending again', async () => {
    const s = await serve([status(429, { 'retry-after': '1' }), ok]);
    expect((await retryingFetch(fetch, quick)(s.url)).status).toBe(200);
    expect(s.times).toHaveLength(2);
    // With a 1 ms backoff, only honouring Retry-After makes the gap this long.
    expect(s.times[1] - s.times[0]).toBeGreaterThanOrEqual(900);
  });

  it('gives up after three retries with the last answer', async () => {
    const s = await serve([status(502)]);
    expect((await retryingFetch(fetch, quick)(s.url)).status).toBe(502);
    expect(s.times).toHaveLength(4);
  });

  it('never retries another 4xx, or a Retry-After beyond the cap, or when told not to', async () => {
    for (const code of [400, 404, 409]) {
      const s = await serve([status(code), ok]);
      expect((await retryingFetch(fetch, quick)(s.url)).status).toBe(code);
      expect(s.times).toHaveLength(1);
    }
    const later = await serve([status(503, { 'retry-after': '3600' }), ok]);
    expect((await retryingFetch(fetch, quick)(later.url)).status).toBe(503);
    expect(later.times).toHaveLength(1);
    const off = await serve([status(503), ok]);
    expect((await retryingFetch(fetch, { ...quick, attempts: 0 })(off.url)).status).toBe(503);
    expect(off.times).toHaveLength(1);
  });

  it('re-sends a POST body, and stops waiting when the request is aborted', async () => {
    const bodies: string[] = [];
    const s = await serve([
      (req, res) => {
        let b = '';
        req.on('data', (d) => (b += d)).on('end', () => (bodies.push(b), status(503)(req, res)));
      },
      (req, res) => {
        let b = '';
        req.on('data', (d) => (b += d)).on('end', () => (bodies.push(b), ok(req, res)));
      },
    ]);
    expect((await retryingFetch(fetch, quick)(s.url, { method: 'POST', body: '{"id":1}' })).status).toBe(200);
    expect(bodies).toEqual(['{"id":1}', '{"id":1}']);

    const slow = await serve([status(503, { 'retry-after': '20' })]);
    const controller = new AbortController();
    const pending = retryingFetch(fetch, quick)(slow.url, { signal: controller.signal });
    while (slow.times.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
    expect(slow.times).toHaveLength(1);
  });
});
