import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from '@toolbelt/core';
import { json, serve, type TestServer } from '../__fixtures__/server.js';
import { ApiClient, queryString } from './api.js';

let server: TestServer;
beforeAll(async () => {
  server = await serve((req, res) => {
    if (req.url.pathname === '/v1/big') return void res.writeHead(200).end('x'.repeat(5000));
    if (req.url.pathname === '/v1/bad')
      return json(res, 400, { error: { code: 400, message: 'Invalid value for timeMin' } });
    if (req.url.pathname === '/v1/html')
      return void res
        .writeHead(502, { 'content-type': 'text/html' })
        .end('<html><body><h1>Bad   gateway</h1></body></html>');
    json(res, 200, { ok: true });
  });
});
afterAll(() => server.close());

const client = () =>
  new ApiClient({
    service: 'Svc',
    baseUrl: `${server.origin}/v1`,
    credentialHint: 'check SVC_KEY',
    maxBytes: 1000,
    retry: { attempts: 0 },
  });
const signal = new AbortController().signal;

async function failure(path: string): Promise<ToolError> {
  try {
    await client().text(path, {}, signal);
  } catch (err) {
    return err as ToolError;
  }
  throw new Error('no failure');
}

describe('ApiClient', () => {
  it('refuses an answer over its size limit instead of reading it all', async () => {
    expect((await failure('/big')).message).toBe('Svc answered with more than 1 KB; ask for less');
  });

  it("says the service's own message for a 400, and the start of an HTML error page", async () => {
    const bad = await failure('/bad');
    expect(bad.code).toBe('INVALID_PARAMS');
    expect(bad.message).toBe('Svc refused the request (HTTP 400: Invalid value for timeMin); fix the parameters');
    const html = await failure('/html');
    expect(html).toMatchObject({
      code: 'EXECUTION_FAILED',
      recoverable: true,
      message: 'Svc failed (HTTP 502: Bad gateway)',
    });
  });

  it('sends arrays as repeated keys and leaves out what is undefined', () => {
    expect(queryString({ 'group_by[]': ['model', 'workspace_id'], limit: 5, page: undefined })).toBe(
      '?group_by%5B%5D=model&group_by%5B%5D=workspace_id&limit=5',
    );
    expect(client().url('/users/me', { q: 'a b' })).toBe(`${server.origin}/v1/users/me?q=a+b`);
  });
});
