// Bodies and headers read from Node's request directly (no web Request built on the hot path), and
// the same rules when the app is handed a web Request (gateway.fetch).
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Harness } from '../__fixtures__/harness.js';
import { errorOf } from '../__fixtures__/answers.js';

const TOKEN = 'body-test-token-0000000000';
const CALLS = '/api/runs/run-1/tool-calls';
let h: Harness;
beforeAll(async () => {
  h = await startGateway({
    config: {
      gateway: {
        maxBodyBytes: 64 * 1024,
        allowedHosts: ['gateway.local'],
        tokens: [{ token: TOKEN, roles: ['admin'] }],
      },
    },
  });
});
afterAll(() => h.cleanup());

interface Sent {
  status: number;
  body: any;
}

/** One request over a socket, the body written in the given pieces (no Content-Length when chunked). */
function send(pieces: Buffer[], headers: Record<string, string | string[]>): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const u = new URL(`${h.url}${CALLS}`);
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }),
      );
    });
    for (const [k, v] of Object.entries(headers)) req.setHeader(k, v);
    req.on('error', reject);
    const write = (i: number) => {
      if (i === pieces.length) return req.end();
      req.write(pieces[i]);
      setTimeout(() => write(i + 1), 5);
    };
    write(0);
  });
}

const auth = { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` };

describe('request bodies and headers on Node', () => {
  it('reads a body sent in pieces, with a character split between two of them', async () => {
    const body = Buffer.from(JSON.stringify({ agentId: 'a', name: 'echo', input: { text: 'héllo → wörld 🙂' } }));
    const cut = body.indexOf(Buffer.from('🙂')) + 2;
    const r = await send([body.subarray(0, 10), body.subarray(10, cut), body.subarray(cut)], {
      ...auth,
      'transfer-encoding': 'chunked',
    });
    expect(r.status).toBe(200);
    expect(r.body.content[0].text).toBe('echo: héllo → wörld 🙂');
  });

  it('drops a byte order mark, as a web Request would', async () => {
    const body = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(JSON.stringify({ agentId: 'a', name: 'echo', input: { text: 'bom' } })),
    ]);
    const r = await send([body], auth);
    expect([r.status, r.body.content?.[0].text]).toEqual([200, 'echo: bom']);
  });

  it('an empty body counts as {} and is refused for what it lacks', async () => {
    const r = await send([], { ...auth, 'content-length': '0' });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain('`agentId` is required');
  });

  it('refuses two Authorization headers, as a web Headers object would join them', async () => {
    const body = Buffer.from(JSON.stringify({ agentId: 'a', name: 'echo', input: { text: 'x' } }));
    const r = await send([body], {
      'content-type': 'application/json',
      authorization: [`Bearer ${TOKEN}`, `Bearer ${TOKEN}`],
    });
    expect(r.status).toBe(401);
  });

  it('keeps serving after a client hangs up half-way through a body', async () => {
    await new Promise<void>((resolve) => {
      const u = new URL(`${h.url}${CALLS}`);
      const req = request({
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        headers: { ...auth, 'content-length': '1000' },
      });
      req.on('error', () => resolve());
      req.write('{"agentId": "a", "name": "ec');
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 20);
    });
    const r = await send([Buffer.from(JSON.stringify({ agentId: 'a', name: 'echo', input: { text: 'after' } }))], auth);
    expect(r.body.content[0].text).toBe('echo: after');
  });
});

describe('the same rules through gateway.fetch (a web Request)', () => {
  const call = (body: RequestInit['body'], headers: Record<string, string> = auth, init: RequestInit = {}) =>
    h.gw.fetch(new Request(`http://gateway.local${CALLS}`, { method: 'POST', headers, body, ...init }));

  it('runs a call', async () => {
    const res = await call(JSON.stringify({ agentId: 'a', name: 'echo', input: { text: 'web' } }));
    const result = (await res.json()) as { content: { text: string }[] };
    expect([res.status, result.content[0].text]).toEqual([200, 'echo: web']);
  });

  it('needs the token', async () => {
    const res = await call(JSON.stringify({ agentId: 'a', name: 'echo', input: { text: 'web' } }), {
      'content-type': 'application/json',
    });
    expect(res.status).toBe(401);
  });

  it('refuses a huge body, declared or streamed', async () => {
    const huge = JSON.stringify({ agentId: 'a', name: 'echo', input: { text: 'x'.repeat(200 * 1024) } });
    const declared = await call(huge, { ...auth, 'content-length': String(huge.length) });
    expect(declared.status).toBe(413);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 20; i++) c.enqueue(new TextEncoder().encode('x'.repeat(8 * 1024)));
        c.close();
      },
    });
    const streamed = await call(stream, auth, { duplex: 'half' } as RequestInit);
    expect(streamed.status).toBe(413);
    expect((await errorOf(streamed)).code).toBe('PAYLOAD_TOO_LARGE');
  });
});
