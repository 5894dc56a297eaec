// Bad input gets a 4xx that says what was wrong and what to do; the server keeps serving.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Harness } from '../__fixtures__/harness.js';
import { errorOf } from '../__fixtures__/answers.js';

let h: Harness;
beforeAll(async () => {
  h = await startGateway({ config: { gateway: { maxBodyBytes: 64 * 1024 } } });
});
afterAll(() => h.cleanup());

async function post(
  path: string,
  body: string,
  headers: Record<string, string> = { 'content-type': 'application/json' },
) {
  const res = await fetch(`${h.url}${path}`, { method: 'POST', headers, body });
  return { status: res.status, body: (await res.json()) as any };
}

const CALLS = '/api/runs/run-1/tool-calls';

describe('bad input', () => {
  it('malformed JSON: 400 INVALID_JSON', async () => {
    const r = await post(CALLS, '{"agentId": "a", "name": ');
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('INVALID_JSON');
    expect(r.body.error.message).toMatch(/^the body is not valid JSON \(.+\); send a JSON object$/);
  });

  it('a body that is not an object: 400', async () => {
    expect((await post(CALLS, '[1,2]')).body.error.message).toBe('the body must be a JSON object, not an array');
    expect((await post(CALLS, '"hello"')).body.error.message).toBe('the body must be a JSON object, not "hello"');
  });

  it('wrong types, missing and unknown fields: 400 naming each field', async () => {
    const r = await post(CALLS, JSON.stringify({ agentId: 7, arguments: {} }));
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('BAD_REQUEST');
    expect(r.body.error.message).toContain('`agentId`');
    expect(r.body.error.message).toContain('`name` is required');
    expect(r.body.error.message).toContain('unknown field `arguments`');
    const res = await post('/api/runs/run-1/tool-results', JSON.stringify({ callId: 'x' }));
    expect(res.body.error.message).toContain('send exactly one of `result` (any JSON) or `error`');
    const both = await post('/api/runs/run-1/tool-results', JSON.stringify({ callId: 'x', result: 1, error: 'e' }));
    expect(both.status).toBe(400);
    const badId = await post(CALLS, JSON.stringify({ agentId: 'a', name: 'echo', callId: 'has spaces' }));
    expect(badId.body.error.message).toContain('`callId`');
  });

  it('a body that is not JSON at all: 415', async () => {
    const r = await post(CALLS, 'agentId=a', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(r.status).toBe(415);
    expect(r.body.error.message).toContain('Content-Type: application/json');
  });

  it('a huge body: 413, whether its length is declared or streamed', async () => {
    const huge = JSON.stringify({ agentId: 'a', name: 'echo', input: { text: 'x'.repeat(200 * 1024) } });
    const declared = await post(CALLS, huge);
    expect(declared.status).toBe(413);
    expect(declared.body.error).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'the request body is too large (limit 65536 bytes); send less, e.g. a path instead of file contents',
    });
    const streamed = await new Promise<number>((resolve, reject) => {
      const u = new URL(`${h.url}${CALLS}`);
      const req = request(
        {
          host: u.hostname,
          port: u.port,
          path: u.pathname,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 20; i++) req.write('x'.repeat(8 * 1024));
      req.end();
    });
    expect(streamed).toBe(413);
  });

  it('an unknown tool: 404 with a ToolResult the model can read', async () => {
    const r = await post(CALLS, JSON.stringify({ agentId: 'a', name: 'ecko', input: {} }));
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ status: 'error', tool: 'ecko', error: { code: 'UNKNOWN_TOOL' } });
    expect(r.body.error.message).toContain('echo');
  });

  it('input that does not match the tool schema: 422 with INVALID_PARAMS', async () => {
    const r = await post(CALLS, JSON.stringify({ agentId: 'a', name: 'echo', input: { text: 5 } }));
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMS', recoverable: true });
    expect(r.body.error.message).toContain('`text` must be a string');
  });

  it('bad query parameters and unknown routes: 400 and 404', async () => {
    const limit = await fetch(`${h.url}/api/tool-calls?limit=-3`);
    expect([limit.status, (await errorOf(limit)).message]).toEqual([
      400,
      'query parameter `limit` must be a non-negative integer, not "-3"',
    ]);
    const status = await fetch(`${h.url}/api/tool-calls?status=done`);
    expect((await errorOf(status)).message).toContain('unknown status done');
    const format = await fetch(`${h.url}/api/tools?format=cohere`);
    expect([format.status, (await errorOf(format)).message]).toEqual([
      400,
      expect.stringContaining('unknown format "cohere"'),
    ]);
    const route = await fetch(`${h.url}/api/nothing-here`);
    expect([route.status, (await errorOf(route)).message]).toEqual([
      404,
      'no route GET /api/nothing-here; the API is described at /api/openapi.json',
    ]);
    const ack = await post('/api/agents/a/inbox/ack', JSON.stringify({ ids: [] }));
    expect(ack.status).toBe(400);
  });

  it('keeps serving after all of that', async () => {
    expect((await fetch(`${h.url}/healthz`)).status).toBe(200);
    expect(await h.client().call('run-1', 'echo', { text: 'still here' })).toMatchObject({
      status: 'success',
      content: [{ text: 'echo: still here' }],
    });
  });
});
