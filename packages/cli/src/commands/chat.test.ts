// `toolbelt chat` against local servers speaking the providers' APIs, the key read from the workspace's .env.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { anthropicStream } from '../../../agent/src/__fixtures__/anthropic.js';
import { chatStream } from '../../../agent/src/__fixtures__/openai.js';
import { providerServer, type ProviderServer } from '../../../agent/src/__fixtures__/server.js';
import { runMain } from '../__fixtures__/run-main.js';
import { main } from '../main.js';
import { useIsolatedState } from '../__fixtures__/trust.js';

let root: string;
// Saved approvals go to a state directory of this file's own, not the real home's.
useIsolatedState();
let server: ProviderServer | undefined;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tb-chat-'));
  writeFileSync(join(root, 'notes.txt'), 'alpha\nbeta\n');
  writeFileSync(join(root, '.env'), 'ANTHROPIC_API_KEY=sk-ant-from-dotenv\nOPENAI_API_KEY=sk-from-dotenv\n');
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(root, { recursive: true, force: true });
});

/** main() as a person at a terminal: `lines` are what they type, in order. */
async function typed(argv: string[], lines: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  const code = await main(argv, {
    stdout,
    stderr,
    stdin: Readable.from([lines.map((l) => `${l}\n`).join('')]),
    interactive: true,
  });
  return { code, out, err };
}

describe('toolbelt chat', () => {
  it('--prompt: streams the answer to stdout, the tool calls to stderr, and exits', async () => {
    server = await providerServer([
      { named: true, sse: anthropicStream('', [{ id: 'toolu_1', name: 'read_file', input: { path: 'notes.txt' } }]) },
      { named: true, sse: anthropicStream('The notes say alpha.') },
    ]);
    const run = await runMain([
      'chat',
      '--provider',
      'anthropic',
      '--model',
      'claude-test',
      '--base-url',
      server.url,
      '--root',
      root,
      '--prompt',
      'what do the notes say?',
    ]);
    expect(run.code).toBe(0);
    expect(run.out).toBe('The notes say alpha.\n');
    expect(run.err).toContain('→ read_file {"path":"notes.txt"}');
    expect(run.err).toContain('← read_file: success');
    expect(server.requests[0].headers.authorization).toBe('Bearer sk-ant-from-dotenv');
    expect(server.requests[1].body.messages[2].content[0].content[0].text).toContain('alpha');
    // Logged like any terminal call.
    const log = readFileSync(join(root, '.toolbelt', 'executions.jsonl'), 'utf8');
    expect(JSON.parse(log.trim().split('\n')[0])).toMatchObject({
      tool: 'read_file',
      status: 'success',
      origin: 'terminal',
    });
  });

  it('asks at the terminal before a write; "n" and a message reach the model, and the chat goes on', async () => {
    server = await providerServer([
      { sse: chatStream('', [{ id: 'call_1', name: 'write_file', input: { path: 'out.md', content: 'x' } }]) },
      { sse: chatStream('Understood.') },
      { sse: chatStream('Bye.') },
    ]);
    const run = await typed(
      ['chat', '--provider', 'openai-chat', '--model', 'gpt-test', '--base-url', `${server.url}/v1`, '--root', root],
      ['write out.md', 'n', 'use notes.txt instead', '', 'thanks'],
    );
    expect(run.code).toBe(0);
    expect(run.err).toContain('Tool approval: write_file');
    expect(run.err).toContain('← write_file: rejected');
    expect(existsSync(join(root, 'out.md'))).toBe(false);
    const tool = server.requests[1].body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(tool.content).toContain('use notes.txt instead');
    // The second prompt continues the conversation.
    expect(server.requests[2].body.messages.map((m: { role: string }) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ]);
    expect(run.out).toBe('Understood.\nBye.\n');
  });

  it('without the API key it says which variable to set', async () => {
    const saved = { GEMINI_API_KEY: process.env.GEMINI_API_KEY, GOOGLE_API_KEY: process.env.GOOGLE_API_KEY };
    delete process.env.GEMINI_API_KEY;
    delete process.env.GOOGLE_API_KEY;
    try {
      const run = await runMain([
        'chat',
        '--provider',
        'gemini',
        '--model',
        'gemini-test',
        '--root',
        root,
        '--prompt',
        'hi',
      ]);
      expect(run.code).toBe(2);
      expect(run.err).toMatch(/no API key for gemini: set GEMINI_API_KEY or GOOGLE_API_KEY/);
    } finally {
      Object.assign(process.env, Object.fromEntries(Object.entries(saved).filter(([, v]) => v !== undefined)));
    }
  });

  it('an unknown provider is a usage error naming the ones there are', async () => {
    const run = await runMain(['chat', '--provider', 'mistral', '--model', 'm', '--root', root, '--prompt', 'hi']);
    expect(run.code).toBe(2);
    expect(run.err).toContain('unknown provider "mistral"; use one of: anthropic, openai, openai-chat, gemini');
  });

  it("a provider's failure is reported on stderr with exit code 1", async () => {
    server = await providerServer([
      { status: 401, json: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } },
    ]);
    const run = await runMain([
      'chat',
      '--provider',
      'anthropic',
      '--model',
      'm',
      '--base-url',
      server.url,
      '--root',
      root,
      '--prompt',
      'hi',
    ]);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/error: anthropic failed: .*invalid x-api-key/);
  });
});

describe.skipIf(process.platform !== 'linux')('toolbelt chat stopped by a signal', () => {
  it('SIGINT while the model is answering ends the run and the command with 130', async () => {
    server = await providerServer([{ hang: true }]);
    const bin = fileURLToPath(new URL('../../bin/toolbelt.js', import.meta.url));
    const args = [
      bin,
      'chat',
      '--provider',
      'anthropic',
      '--model',
      'm',
      '--base-url',
      server.url,
      '--root',
      root,
      '--prompt',
      'hi',
    ];
    const child = spawn(process.execPath, args, { env: { ...process.env, ANTHROPIC_API_KEY: 'k' }, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    for (let i = 0; server.requests.length === 0 && i < 800; i++) await new Promise((r) => setTimeout(r, 25));
    expect(server.requests).toHaveLength(1);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
  });

  it('SIGTERM while it waits for the next prompt ends the chat with 143', async () => {
    server = await providerServer([]);
    const bin = fileURLToPath(new URL('../../bin/toolbelt.js', import.meta.url));
    const args = [bin, 'chat', '--provider', 'anthropic', '--model', 'm', '--base-url', server.url, '--root', root];
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ANTHROPIC_API_KEY: 'k' },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    for (let i = 0; !err.includes('> ') && i < 800; i++) await new Promise((r) => setTimeout(r, 25));
    expect(err).toContain('> ');
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(server.requests).toHaveLength(0);
  });
});
