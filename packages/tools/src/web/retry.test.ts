// web_fetch and web_search retry what passes (a dropped connection, 429 after its Retry-After,
// 5xx) and nothing else, against local servers that fail a given number of times, then answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { Executor, Policy, textOf, ToolRegistry, type Tool, type ToolEvent } from '@toolbelt/core';
import { type HttpRetryOptions } from '@toolbelt/core/net';
import { serve, type TestServer } from './__fixtures__/server.js';
import { BraveSearchProvider } from './search/brave.js';
import { HostPolicy } from './ssrf.js';
import { webFetchTool } from './web_fetch.js';
import { webSearchTool } from './web_search.js';

type Answer = (req: IncomingMessage, res: ServerResponse) => void;
const reset: Answer = (req) => req.socket.destroy();
const fail =
  (status: number, headers: Record<string, string> = {}): Answer =>
  (_req, res) =>
    void res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(`failed with ${status}`);

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** Fails with each of `failures` in turn, then answers with `ok`; records when each request came. */
async function flaky(failures: Answer[], ok: Answer): Promise<TestServer & { times: number[] }> {
  const times: number[] = [];
  const s = await serve((req, res) => {
    times.push(Date.now());
    (failures[times.length - 1] ?? ok)(req, res);
  });
  servers.push(s);
  return Object.assign(s, { times });
}

const page: Answer = (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('the page');

function run(tool: Tool, input: Record<string, unknown>) {
  const executor = new Executor({ registry: new ToolRegistry().register(tool), policy: new Policy({ mode: 'yolo' }) });
  const events: ToolEvent[] = [];
  executor.events.on((e) => events.push(e));
  return executor.call({ tool: tool.name, input }).then((result) => ({ result, events }));
}

const fetcher = (retry: HttpRetryOptions = { baseDelayMs: 1 }) =>
  webFetchTool({
    hosts: new HostPolicy(['127.0.0.1']),
    userAgent: 'toolbelt-test',
    timeoutMs: 10_000,
    maxBytes: 1024 * 1024,
    maxRedirects: 5,
    retry,
  });

describe('web_fetch retries', () => {
  it('fetches the page after two dropped connections and a 502, saying so in progress events', async () => {
    const s = await flaky([reset, reset, fail(502)], page);
    const { result, events } = await run(fetcher(), { url: `${s.origin}/p` });
    expect(result.status, textOf(result)).toBe('success');
    expect(textOf(result)).toContain('the page');
    expect(s.times).toHaveLength(4);
    const progress = events.flatMap((e) => (e.type === 'tool.progress' ? [e.message] : []));
    expect(progress.map((m) => m?.replace(/[\d.]+ s$/, 'N s'))).toEqual([
      'the connection was reset; retry 1 in N s',
      'the connection was reset; retry 2 in N s',
      'HTTP 502; retry 3 in N s',
    ]);
  });

  it('waits out a 429 for its Retry-After of 1 s, then fetches', async () => {
    const s = await flaky([fail(429, { 'retry-after': '1' })], page);
    const { result } = await run(fetcher(), { url: `${s.origin}/p` });
    expect(result.status).toBe('success');
    expect(s.times).toHaveLength(2);
    // The backoff is 1 ms here: only the server's Retry-After makes the gap this long.
    expect(s.times[1] - s.times[0]).toBeGreaterThanOrEqual(900);
  });

  it('gives up after 3 retries with a recoverable error saying how often it tried', async () => {
    const s = await flaky([], fail(503));
    const { result } = await run(fetcher(), { url: `${s.origin}/p` });
    expect(result.error).toEqual({
      code: 'EXECUTION_FAILED',
      recoverable: true,
      message: `GET ${s.origin}/p returned 503 Service Unavailable: failed with 503. Try again later. Sent 4 times.`,
    });
    expect(s.times).toHaveLength(4);
  });

  it('does not retry 4xx other than 408 and 429, nor a Retry-After longer than it waits', async () => {
    for (const status of [400, 404, 403]) {
      const s = await flaky([fail(status)], page);
      expect((await run(fetcher(), { url: `${s.origin}/p` })).result.status).toBe('error');
      expect(s.times).toHaveLength(1);
    }
    const timeout = await flaky([fail(408)], page);
    expect((await run(fetcher(), { url: `${timeout.origin}/p` })).result.status).toBe('success');
    expect(timeout.times).toHaveLength(2);
    const later = await flaky([fail(429, { 'retry-after': '3600' })], page);
    const { result } = await run(fetcher(), { url: `${later.origin}/p` });
    expect(result.error?.message).toContain(
      'returned 429 Too Many Requests: failed with 429. Try again later (the server asks for 3600 s).',
    );
    expect(later.times).toHaveLength(1);
  });

  it('retries as configured: attempts 0 sends once', async () => {
    const s = await flaky([fail(503)], page);
    expect((await run(fetcher({ attempts: 0 }), { url: `${s.origin}/p` })).result.status).toBe('error');
    expect(s.times).toHaveLength(1);
  });
});

describe('web_search retries', () => {
  const results: Answer = (_req, res) =>
    void res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ web: { results: [{ title: 'Found', url: 'https://example.com/' }] } }));
  const searcher = (origin: string) =>
    webSearchTool(new BraveSearchProvider({ apiKey: 'k', baseUrl: origin, retry: { baseDelayMs: 1 } }));

  it('answers after a dropped connection, a 429 and a 500', async () => {
    const s = await flaky([reset, fail(429), fail(500)], results);
    const { result } = await run(searcher(s.origin), { query: 'q' });
    expect(result.status, textOf(result)).toBe('success');
    expect(textOf(result)).toContain('1. Found');
    expect(s.times).toHaveLength(4);
  });

  it('does not retry a rejected key', async () => {
    const s = await flaky([fail(401)], results);
    expect((await run(searcher(s.origin), { query: 'q' })).result.error?.code).toBe('PERMISSION_DENIED');
    expect(s.times).toHaveLength(1);
  });
});
