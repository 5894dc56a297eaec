// `toolbelt chat` against a local OpenAI-compatible server (llama.cpp, Ollama, LM Studio): no API
// key, a stream that leaves out the role, and a server that is not running.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatStream } from '../../../agent/src/__fixtures__/openai.js';
import { providerServer, type ProviderServer } from '../../../agent/src/__fixtures__/server.js';
import { runMain } from '../__fixtures__/run-main.js';
import { useIsolatedState } from '../__fixtures__/trust.js';
import { NO_KEY } from './chat-model.js';

useIsolatedState();
let root: string;
let server: ProviderServer | undefined;
let savedKey: string | undefined;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tb-chat-local-'));
  writeFileSync(join(root, 'notes.txt'), 'alpha\n');
  savedKey = process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_API_KEY;
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (savedKey !== undefined) process.env.OPENAI_API_KEY = savedKey;
  rmSync(root, { recursive: true, force: true });
});

/** Chat Completions chunks as some local servers send them: no `role` in any delta. */
function withoutRole(events: unknown[]): unknown[] {
  return events.map((e) => {
    const chunk = e as { choices?: { delta: Record<string, unknown> }[] };
    if (!chunk.choices) return e;
    return { ...chunk, choices: chunk.choices.map(({ delta: { role: _role, ...delta }, ...c }) => ({ ...c, delta })) };
  });
}

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

const chat = (baseUrl: string) => [
  'chat',
  '--provider',
  'openai-chat',
  '--model',
  'local',
  '--base-url',
  baseUrl,
  '--root',
  root,
  '--prompt',
  'hi',
];

describe('toolbelt chat with a local OpenAI-compatible server', () => {
  it('needs no OPENAI_API_KEY with --base-url, and takes a stream without a role', async () => {
    const stream = withoutRole(chatStream('', [{ id: 'call_1', name: 'read_file', input: { path: 'notes.txt' } }]));
    expect(JSON.stringify(stream)).not.toContain('"role"');
    server = await providerServer([{ sse: stream }, { sse: withoutRole(chatStream('The notes say alpha.')) }]);
    const run = await runMain(chat(`${server.url}/v1`));
    expect(run.err).not.toContain('missing role');
    expect(run.code).toBe(0);
    expect(run.out).toBe('The notes say alpha.\n');
    expect(run.err).toContain('← read_file: success');
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${NO_KEY}`);
    expect(server.requests[1].body.messages[1]).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call_1' }] });
  });

  it('without --base-url the key is still asked for', async () => {
    const run = await runMain([
      'chat',
      '--provider',
      'openai-chat',
      '--model',
      'gpt',
      '--root',
      root,
      '--prompt',
      'hi',
    ]);
    expect(run.code).toBe(2);
    expect(run.err).toContain('no API key for openai-chat: set OPENAI_API_KEY');
  });

  it('a server that is not running: the error names the URL and the refused connection', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const run = await runMain(chat(url));
    expect(run.code).toBe(1);
    expect(run.err).toContain(
      `error: openai failed: cannot reach the model server at ${url}: connection refused (ECONNREFUSED)`,
    );
    expect(run.err).not.toContain('Connection error.');
  });
});
