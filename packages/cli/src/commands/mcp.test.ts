// `toolbelt mcp` as a real process, driven by the official SDK Client over stdio and HTTP, with the
// reference filesystem server and a fixture server behind it. Runs the built CLI: `npm run build` first.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type ElicitResult,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { FILESYSTEM_SERVER, FIXTURE_SERVER } from '../../../mcp/src/__fixtures__/servers.js';
import { useIsolatedState, writeTrustedConfig } from '../__fixtures__/trust.js';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'toolbelt.js');
const root = realpathSync(mkdtempSync(join(tmpdir(), 'toolbelt-cli-mcp-')));
writeFileSync(join(root, 'hello.txt'), 'hello over mcp\n');
const state = useIsolatedState();
writeTrustedConfig(root, {
  mcpServers: {
    fs: { command: process.execPath, args: [FILESYSTEM_SERVER, root], trust: 'read' },
    fx: { command: process.execPath, args: [FIXTURE_SERVER], trust: 'read' },
  },
});

const text = (r: unknown) =>
  ((r as CallToolResult).content as { type: string; text?: string }[]).map((b) => b.text ?? '').join('\n');

/** Sample inputs for built-ins; one without a sample is still called, and must answer in form. */
const SAMPLES: Record<string, Record<string, unknown>> = {
  read_file: { path: 'hello.txt' },
  list_directory: { path: '.' },
  glob: { pattern: '*.txt' },
  grep: { pattern: 'hello' },
  write_file: { path: 'out.txt', content: 'x' },
  shell_exec: { command: 'echo hi' },
};

let answer: (message: string) => ElicitResult = () => ({ action: 'cancel' });

async function stdioClient(elicitation: boolean): Promise<Client> {
  const client = new Client(
    { name: 'cli-test', version: '1' },
    { capabilities: elicitation ? { elicitation: { form: {} } } : {} },
  );
  if (elicitation)
    client.setRequestHandler(ElicitRequestSchema, (req) => answer((req.params as { message: string }).message));
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--root', root],
      env: { ...getDefaultEnvironment(), XDG_STATE_HOME: state },
      stderr: 'pipe',
    }),
  );
  return client;
}

describe.runIf(existsSync(join(dirname(BIN), '..', 'dist', 'commands', 'mcp.js')))('toolbelt mcp', () => {
  let client: Client;
  let plain: Client;

  beforeAll(async () => {
    [client, plain] = await Promise.all([stdioClient(true), stdioClient(false)]);
  });
  afterAll(async () => {
    await Promise.all([client?.close(), plain?.close()]);
  });

  it("lists the built-ins and every configured server's tools with their annotations", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('fs__read_text_file');
    expect(names).toContain('fx__echo');
    expect(tools.find((t) => t.name === 'fx__echo')!.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((t) => t.name === 'fx__wipe')!.annotations).toMatchObject({ destructiveHint: true });
    expect(tools.find((t) => t.name === 'fs__read_text_file')!.inputSchema).toMatchObject({
      type: 'object',
      required: ['path'],
    });
    // Built-ins with a per-call effect are listed by their usual effect.
    const hints = (name: string) => tools.find((t) => t.name === name)!.annotations;
    expect(hints('read_file')).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(hints('grep')).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(hints('write_file')).toMatchObject({ destructiveHint: false });
    expect(hints('move_file')).toMatchObject({ destructiveHint: true });
    expect(hints('delete_file')).toMatchObject({ destructiveHint: true });
    expect(hints('shell_exec')).toMatchObject({ destructiveHint: true });
  });

  it('calls a proxied tool, and the execution log records it', async () => {
    const result = await client.callTool({ name: 'fs__read_text_file', arguments: { path: join(root, 'hello.txt') } });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toContain('hello over mcp');
    const log = join(root, '.toolbelt', 'executions.jsonl');
    for (let i = 0; i < 100 && !(existsSync(log) && readFileSync(log, 'utf8').includes('fs__read_text_file')); i++)
      await new Promise((r) => setTimeout(r, 30));
    expect(readFileSync(log, 'utf8')).toContain('"tool":"fs__read_text_file"');
  });

  it('answers a call to each built-in with a well-formed result', async () => {
    const builtins = (await client.listTools()).tools.filter((t) => !t.name.includes('__'));
    answer = () => ({ action: 'accept', content: { decision: 'approve' } });
    for (const tool of builtins) {
      const result = await client.callTool({ name: tool.name, arguments: SAMPLES[tool.name] ?? {} });
      expect(Array.isArray(result.content), tool.name).toBe(true);
      if (SAMPLES[tool.name]) expect(result.isError, `${tool.name}: ${text(result)}`).toBeFalsy();
      else if (result.isError) expect(text(result).length, tool.name).toBeGreaterThan(0);
    }
  });

  it("forwards a remote server's progress to the client, through toolbelt", async () => {
    const seen: Progress[] = [];
    const result = await client.callTool({ name: 'fx__slow', arguments: { ms: 300 } }, undefined, {
      onprogress: (p) => void seen.push(p),
    });
    expect(text(result)).toBe('slept 300 ms');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0].message).toMatch(/^step \d+$/);
    expect(seen.map((p) => p.progress)).toEqual([...seen.map((p) => p.progress)].sort((a, b) => a - b));
  });

  it("passes the client's cancellation through toolbelt to the remote server", async () => {
    const controller = new AbortController();
    const call = client.callTool({ name: 'fx__slow', arguments: { ms: 20_000 } }, undefined, {
      signal: controller.signal,
      onprogress: () => controller.abort(),
    });
    await expect(call).rejects.toThrow();
    let seen = '';
    for (let i = 0; i < 150 && seen !== '1'; i++) {
      seen = text(await client.callTool({ name: 'fx__cancellations', arguments: {} }));
      if (seen !== '1') await new Promise((r) => setTimeout(r, 20));
    }
    expect(seen).toBe('1');
  });

  it('asks through elicitation, runs an approved call, and relays list_changed from the remote server', async () => {
    const asked: string[] = [];
    answer = (m) => (asked.push(m), { action: 'accept', content: { decision: 'approve' } });
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    const result = await client.callTool({ name: 'fx__add_tool', arguments: { name: 'approved_tool' } });
    expect(text(result)).toBe('added approved_tool');
    expect(asked[0]).toContain('Allow fx__add_tool? Effect: execute.');
    await changed;
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('fx__approved_tool');
  });

  it('does not run a call the user rejects through elicitation', async () => {
    answer = () => ({ action: 'accept', content: { decision: 'reject', message: 'not that one' } });
    const result = await client.callTool({ name: 'fx__add_tool', arguments: { name: 'rejected_tool' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('The user rejected this fx__add_tool call. The user said: not that one');
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('fx__rejected_tool');
  });

  it('tells a client without elicitation how the user can allow a call that needs approval', async () => {
    const result = await plain.callTool({ name: 'fx__wipe', arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('fx__wipe was not run: it needs approval');
    expect(text(result)).toContain('{"rules":[{"tool":"fx__wipe","action":"allow"}]}');
    expect(text(result)).toContain('--mode yolo');
    const read = await plain.callTool({ name: 'fx__echo', arguments: { text: 'free' } });
    expect(text(read)).toBe('echo: free');
  });
});

describe.runIf(existsSync(join(dirname(BIN), '..', 'dist', 'commands', 'mcp.js')))('toolbelt mcp --http', () => {
  let child: ChildProcess;
  let url: string;
  const token = 'test-token-0123456789abcdef';

  beforeAll(async () => {
    child = spawn(process.execPath, [BIN, 'mcp', '--root', root, '--http', '0', '--token-env', 'TB_TEST_TOKEN'], {
      env: { ...process.env, TB_TEST_TOKEN: token },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    url = await new Promise<string>((resolve, reject) => {
      let err = '';
      child.stderr!.on('data', (d) => {
        err += d;
        const m = /at (http:\/\/\S+)/.exec(err);
        if (m) resolve(m[1]);
      });
      child.once('exit', (code) => reject(new Error(`toolbelt mcp --http exited with ${code}: ${err}`)));
    });
  });
  afterAll(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  });

  it('serves the same tools over Streamable HTTP on 127.0.0.1, with the bearer token', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const denied = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(denied.status).toBe(401);
    const client = new Client({ name: 'http-test', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    // fx__wipe is destructive: its approval form has a confirmation to tick.
    client.setRequestHandler(ElicitRequestSchema, () => ({
      action: 'accept',
      content: { decision: 'approve', confirm: true },
    }));
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('fx__echo');
      expect(text(await client.callTool({ name: 'fx__echo', arguments: { text: 'http' } }))).toBe('echo: http');
      const seen: Progress[] = [];
      await client.callTool({ name: 'fx__slow', arguments: { ms: 300 } }, undefined, {
        onprogress: (p) => void seen.push(p),
      });
      expect(seen.length).toBeGreaterThan(0);
      expect(text(await client.callTool({ name: 'fx__wipe', arguments: {} }))).toBe('wiped');
    } finally {
      await client.close();
    }
  });

  it('refuses a foreign Host like toolbelt serve does', async () => {
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const { port } = new URL(url);
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/mcp',
          method: 'POST',
          headers: { host: 'attacker.example', authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        },
        (r) => {
          let body = '';
          r.on('data', (d) => (body += d));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
    expect(res.status).toBe(403);
    expect(res.body).toContain('--allow-host attacker.example');
  });

  it('refuses to listen on 0.0.0.0 without a token, as toolbelt serve does', () => {
    const refused = spawnSync(process.execPath, [BIN, 'mcp', '--root', root, '--http', '0', '--host', '0.0.0.0'], {
      encoding: 'utf8',
    });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(
      'toolbelt mcp: refusing to listen on 0.0.0.0 without a token: anyone who can reach it could run tools. Require a bearer token (toolbelt mcp --token-env VAR',
    );
  });

  it('stops cleanly on SIGTERM', async () => {
    const code = await new Promise<number | null>((resolve) => {
      child.once('exit', (c) => resolve(c));
      child.kill('SIGTERM');
    });
    expect(code).toBe(0);
  });
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
});
