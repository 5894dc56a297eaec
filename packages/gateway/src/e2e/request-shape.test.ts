// Requests at the edges: a wrong method is 405 with Allow (the path exists), an empty Last-Event-ID
// streams from now, and NUL characters are handled alike on both stores (kept inside JSON, refused
// in ids, query parameters and free text, which PostgreSQL cannot store).
import { Policy, ToolRegistry } from '@toolbelt/core';
import { afterAll, describe, expect, it } from 'vitest';
import { echoTool, startGateway } from '../__fixtures__/harness.js';
import { dropSchemas, freshSchema, PG_URL, pgAvailable } from '../__fixtures__/pg.js';
import { createGateway } from '../gateway.js';
import { openPgStore } from '../store/pg/index.js';

afterAll(dropSchemas, 60_000);
const json = { 'content-type': 'application/json' };

/** Reads the event stream until `until` shows up in it; returns the text read. */
async function readStream(
  url: string,
  lastEventId: string,
  until: string,
  trigger: () => Promise<unknown>,
): Promise<string> {
  const ac = new AbortController();
  const res = await fetch(`${url}/api/events`, { headers: { 'last-event-id': lastEventId }, signal: ac.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const first = await reader.read();
  text += decoder.decode(first.value);
  await trigger();
  while (!text.includes(until)) text += decoder.decode((await reader.read()).value);
  ac.abort();
  return text;
}

describe('requests at the edges', () => {
  it('answers a wrong method with 405 and the methods the path takes', async () => {
    const h = await startGateway();
    try {
      const del = await fetch(`${h.url}/api/tool-calls`, { method: 'DELETE' });
      expect([del.status, del.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
      expect(await del.json()).toMatchObject({
        error: { message: expect.stringMatching(/DELETE is not allowed on \/api\/tool-calls; use GET/) },
      });
      const get = await fetch(`${h.url}/api/runs/r1/tool-calls`);
      expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
      // The control: a path no route takes is still 404.
      expect((await fetch(`${h.url}/api/nothing-here`)).status).toBe(404);
    } finally {
      await h.cleanup();
    }
  });

  it('streams from now for an empty Last-Event-ID, and from the start for 0', async () => {
    const h = await startGateway({ mode: 'yolo' });
    try {
      const call = (callId: string) => h.client().call('r1', 'echo', { text: callId }, { callId });
      await call('before-the-stream');
      const fromNow = await readStream(h.url, '', 'after-the-stream', () => call('after-the-stream'));
      expect(fromNow).not.toContain('before-the-stream');
      const fromStart = await readStream(h.url, '0', 'again', () => call('again'));
      expect(fromStart).toContain('before-the-stream');
    } finally {
      await h.cleanup();
    }
  });
});

/** What a gateway answers to NUL characters in each place, as [status, what came back]. */
async function nulAnswers(base: string): Promise<unknown[]> {
  const post = (path: string, body: unknown) =>
    fetch(`${base}${path}`, { method: 'POST', headers: json, body: JSON.stringify(body) });
  const inInput = await post('/api/runs/r1/tool-calls', {
    agentId: 'a',
    name: 'echo',
    callId: 'nul1',
    input: { text: 'a\u0000b' },
  });
  const stored = (await (await fetch(`${base}/api/tool-calls/nul1`)).json()) as { input?: unknown };
  return [
    inInput.status,
    stored.input,
    (await post('/api/runs/r1/tool-calls', { agentId: 'a\u0000', name: 'echo', input: { text: 'x' } })).status,
    (await post('/api/runs/r1/tool-calls', { agentId: 'a', name: 'echo', input: { text: 'x' }, context: 'c\u0000' }))
      .status,
    (await fetch(`${base}/api/tool-calls?runId=r%001`)).status,
    (await fetch(`${base}/api/tool-calls/nul%001`)).status,
    (await post('/api/runs/r1/tool-results', { callId: 'nul1', error: 'e\u0000' })).status,
  ];
}

describe('NUL characters', () => {
  const expected = [200, { text: 'a\u0000b' }, 400, 400, 400, 400, 400];

  it('are handled this way on SQLite', async () => {
    const h = await startGateway({ mode: 'yolo' });
    try {
      expect(await nulAnswers(h.url)).toEqual(expected);
    } finally {
      await h.cleanup();
    }
  });

  it.skipIf(!pgAvailable)('are handled the same way on PostgreSQL', async () => {
    const store = await openPgStore(PG_URL, { schema: freshSchema('nul') });
    const gw = await createGateway({
      registry: new ToolRegistry().registerAll([echoTool]),
      policy: new Policy({ mode: 'yolo' }),
      store,
      config: {},
      env: {},
    });
    try {
      const { url } = await gw.listen({ port: 0 });
      expect(await nulAnswers(url)).toEqual(expected);
    } finally {
      await gw.close();
      await store.close();
    }
  });
});
