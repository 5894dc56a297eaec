// The gateway's limits at their defaults: a body over 4 MiB gets 413, JSON nested too deep gets
// 400 INVALID_PARAMS (never a 500 from a stack overflow), and the gateway keeps serving.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Harness } from '../__fixtures__/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startGateway();
});
afterAll(() => h.cleanup());

const CALLS = '/api/runs/run-1/tool-calls';
const deep = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

async function post(path: string, body: string) {
  const res = await fetch(`${h.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: res.status, body: (await res.json()) as any };
}

describe('gateway limits', () => {
  it('JSON nested 100,000 deep: 400 INVALID_PARAMS on every route that reads a body', async () => {
    const call = await post(CALLS, `{"agentId":"a","name":"echo","input":${deep(100_000)}}`);
    expect(call.status).toBe(400);
    expect(call.body.error).toEqual({
      code: 'INVALID_PARAMS',
      message: 'the body nests objects and arrays more than 65 levels deep; send a flatter value',
    });
    const result = await post('/api/runs/run-1/tool-results', `{"callId":"x","result":${deep(100_000)}}`);
    expect([result.status, result.body.error.code]).toEqual([400, 'INVALID_PARAMS']);
    const array = await post(CALLS, '['.repeat(100_000) + ']'.repeat(100_000));
    expect([array.status, array.body.error.code]).toEqual([400, 'INVALID_PARAMS']);
    // Nothing was recorded for the refused call.
    expect((await h.store.listCalls({ limit: 10 })).length).toBe(0);
  });

  it('an input exactly as deep as the executor allows (64 levels) reaches the tool schema', async () => {
    const r = await post(CALLS, `{"agentId":"a","name":"echo","input":{"text":"t","x":${deep(63)}}}`);
    // echo takes only `text`: the call got past every limit to the tool's own schema.
    expect([r.status, r.body.error?.code]).toEqual([422, 'INVALID_PARAMS']);
    expect(r.body.error.message).toContain('unknown parameter "x"');
  });

  it('a body over the default 4 MiB: 413 with a JSON error naming the limit', async () => {
    const r = await post(
      CALLS,
      JSON.stringify({ agentId: 'a', name: 'echo', input: { text: 'x'.repeat(5 * 1024 * 1024) } }),
    );
    expect(r.status).toBe(413);
    expect(r.body.error).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'the request body is too large (limit 4194304 bytes); send less, e.g. a path instead of file contents',
    });
  });

  it('keeps serving', async () => {
    expect(await h.client().call('run-1', 'echo', { text: 'still here' })).toMatchObject({
      status: 'success',
      content: [{ text: 'echo: still here' }],
    });
  });
});
