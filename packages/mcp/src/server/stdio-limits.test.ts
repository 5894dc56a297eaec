// `toolbelt mcp` over stdio fed a request over 10 MiB (a real process): it answers that request with
// an error naming the limit, and keeps serving the requests that follow.
import { spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { idOf, LineLimit } from './line-limit.js';

const BIN = fileURLToPath(new URL('../../../cli/bin/toolbelt.js', import.meta.url));
const root = realpathSync(mkdtempSync(join(tmpdir(), 'tb-mcp-limit-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const rpc = (id: number, method: string, params: unknown = {}) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;

describe('the MCP stdio server and requests over its size limit', () => {
  it('answers an oversized request with an error for its id and serves the next request', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp', '--root', root], {
      cwd: root,
      env: { ...process.env, XDG_STATE_HOME: root },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const next = async () =>
      JSON.parse((await answers.next()).value as string) as {
        id: number;
        result?: unknown;
        error?: { message: string };
      };
    try {
      child.stdin.write(
        rpc(1, 'initialize', {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 't', version: '1' },
        }),
      );
      expect((await next()).id).toBe(1);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      // 11 MiB of arguments, written in pieces as a pipe delivers them.
      const huge = rpc(2, 'tools/call', { name: 'read_file', arguments: { path: 'x'.repeat(11 * 1024 * 1024) } });
      for (let i = 0; i < huge.length; i += 1024 * 1024) child.stdin.write(huge.slice(i, i + 1024 * 1024));
      const refused = await next();
      expect(refused).toMatchObject({
        id: 2,
        error: { message: expect.stringMatching(/request too large: a message is limited to 10485760 bytes/) },
      });
      child.stdin.write(rpc(3, 'tools/list'));
      const listed = await next();
      expect(listed.id).toBe(3);
      expect(listed.result).toMatchObject({ tools: expect.any(Array) });
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);

  it('keeps lines within the limit whole, whatever the chunks, and finds the id of a refused one', async () => {
    const refused: unknown[] = [];
    const limit = new LineLimit((id) => refused.push(id), 10);
    const out: string[] = [];
    limit.on('data', (b: Buffer) => out.push(b.toString()));
    for (const chunk of ['{"a":', '1}\n{"id":"x","b":"', '0123456789"}\n', 'ok\n']) limit.write(Buffer.from(chunk));
    await new Promise((r) => setImmediate(r));
    expect(out).toEqual(['{"a":1}\n', 'ok\n']);
    expect(refused).toEqual(['x']);
    expect(idOf('{"jsonrpc":"2.0","id": 42,')).toBe(42);
    expect(idOf('{"jsonrpc":"2.0","method":"x"')).toBeNull();
  });
});
