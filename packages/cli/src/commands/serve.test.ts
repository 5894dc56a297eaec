// `toolbelt serve` as a real process: crash safety under SIGKILL, the token state it prints, its
// refusal to listen on an open address without tokens, where its database lives, the Host and
// Origin check against DNS rebinding, and the one executor the gateway serves through.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpaceMessage } from '@toolbelt/protocol';
import { trustConfig } from '../__fixtures__/trust.js';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const bin = join(repo, 'packages/cli/bin/toolbelt.js');
const dir = mkdtempSync(join(tmpdir(), 'tb-serve-'));
// The database's default place is per user, outside the workspace: keep it in a temp dir here.
const stateHome = mkdtempSync(join(tmpdir(), 'tb-serve-state-'));
const ENV = { ...process.env, TOOLBELT_GATEWAY_TOKEN: '', TOOLBELT_GATEWAY_TOKEN_FILE: '', XDG_STATE_HOME: stateHome };
const children = new Set<ChildProcess>();

const tsc = (...args: string[]) =>
  spawnSync(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), ...args], {
    cwd: repo,
    encoding: 'utf8',
  });

beforeAll(() => {
  // The CLI runs from dist: bring the gateway and the CLI up to date with their sources.
  const gateway = tsc('-b', 'packages/gateway');
  if (gateway.status !== 0)
    throw new Error(
      `the gateway does not build, so toolbelt serve cannot be tested:\n${gateway.stdout}${gateway.stderr}`,
    );
  // A type error in a package being edited elsewhere must not stop this test: emit the CLI anyway.
  if (tsc('-b', 'packages/cli').status !== 0) tsc('-p', 'packages/cli/tsconfig.json');
  if (
    statSync(join(repo, 'packages/cli/dist/commands/serve.js')).mtimeMs <
    statSync(join(repo, 'packages/cli/src/commands/serve.ts')).mtimeMs
  ) {
    throw new Error('packages/cli/dist is older than its sources and could not be rebuilt; run npm run build');
  }
  writeFileSync(
    join(dir, 'toolbelt.config.json'),
    JSON.stringify({
      tools: [
        {
          name: 'confirmAction',
          description: 'Ask the user to confirm.',
          inputSchema: { type: 'object', properties: { n: { type: 'integer' } } },
          executionType: 'space',
          isAsync: true,
        },
        {
          name: 'askUser',
          description: 'Ask the user and wait for the answer.',
          inputSchema: { type: 'object', properties: { n: { type: 'integer' } } },
          executionType: 'space',
          timeout: 120000,
        },
      ],
    }),
  );
  trustConfig(join(dir, 'toolbelt.config.json'), ENV);
}, 120_000);
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
  rmSync(stateHome, { recursive: true, force: true });
});

/** Starts `toolbelt serve` and resolves with its URL and what it printed, once it listens. */
function serve(
  args: string[] = [],
  env: Record<string, string> = {},
  root = dir,
): Promise<{ child: ChildProcess; url: string; banner: string }> {
  const child = spawn(process.execPath, [bin, 'serve', '--root', root, '--port', '0', ...args], {
    env: { ...ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)\n.*\n/.exec(out);
      if (m) resolve({ child, url: m[1], banner: out });
    });
    child.stderr!.on('data', (d) => (err += d));
    child.on('exit', (code) => reject(new Error(`toolbelt serve exited with ${code}: ${err}${out}`)));
  });
}

async function inParallel<T>(n: number, width: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await fn(i);
      }
    }),
  );
  return out;
}

const post = async (url: string, body: unknown) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};
/** A request with any Host and Origin (fetch would set Host itself). */
function raw(
  url: string,
  path: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: hostname, port, path, method, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(
      method === 'POST'
        ? JSON.stringify({ agentId: 'rebound', name: 'list_directory', input: { path: '.' } })
        : undefined,
    );
  });
}
const exited = (child: ChildProcess) =>
  new Promise<number | null>((r) =>
    child.exitCode !== null ? r(child.exitCode) : child.on('exit', (code) => r(code)),
  );

/** Creates a space with these agents as members, each in it as its active space. */
async function enterSpace(url: string, spaceId: string, agents: string[]): Promise<void> {
  expect((await post(`${url}/api/spaces`, { id: spaceId, name: spaceId })).status).toBe(201);
  await post(`${url}/api/spaces/${spaceId}/members`, { memberId: 'husam', kind: 'person' });
  for (const agentId of agents) {
    await post(`${url}/api/spaces/${spaceId}/members`, { memberId: agentId, kind: 'agent' });
    expect(
      (await post(`${url}/api/runs/enter/tool-calls`, { agentId, name: 'enter_space', input: { spaceId } })).body
        .status,
    ).toBe('success');
  }
}

describe('toolbelt serve', () => {
  it('survives SIGKILL during 100 open space calls: after restart every answer reaches its agent once, through its think cycles', async () => {
    const N = 100;
    const agents = ['sp-a', 'sp-b', 'sp-c', 'sp-d'];
    const first = await serve();
    await enterSpace(first.url, 'kill-room', agents);
    // Half async (pending at once), half waiting on their open HTTP requests when the process dies.
    const tool = (i: number) => (i % 2 ? 'askUser' : 'confirmAction');
    const call = (i: number) =>
      post(`${first.url}/api/runs/run-kill/tool-calls`, {
        agentId: agents[i % 4],
        name: tool(i),
        input: { n: i },
        callId: `kill-${i}`,
      });
    const waiting = Array.from({ length: N / 2 }, (_, k) => call(2 * k + 1).catch(() => undefined));
    const pending = await inParallel(N / 2, 16, (k) => call(2 * k));
    expect(pending.every((r) => r.status === 200 && r.body.status === 'pending')).toBe(true);
    const open = async () => {
      const res = await fetch(`${first.url}/api/spaces/kill-room/messages?limit=500`);
      const { messages } = (await res.json()) as { messages: SpaceMessage[] };
      return messages.filter((m) => m.status === 'requires_action');
    };
    for (let i = 0; i < 200 && (await open()).length < N; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await open()).toHaveLength(N);

    first.child.kill('SIGKILL');
    expect(await exited(first.child)).toBe(null);
    await Promise.all(waiting);

    const second = await serve();
    const answered = await inParallel(N, 16, (i) =>
      post(`${second.url}/api/runs/run-kill/tool-results`, {
        callId: `kill-${i}`,
        result: { confirmed: i },
        spaceId: 'kill-room',
      }),
    );
    expect(answered.filter((r) => r.status === 200 && r.body.delivered === 'inbox')).toHaveLength(N);
    const again = await inParallel(N, 16, (i) =>
      post(`${second.url}/api/runs/run-kill/tool-results`, {
        callId: `kill-${i}`,
        result: 'again',
        spaceId: 'kill-room',
      }),
    );
    expect(again.every((r) => r.status === 409)).toBe(true);

    const got = new Map<string, string[]>();
    for (const agentId of agents) {
      for (;;) {
        const cycle = (await post(`${second.url}/api/agents/${agentId}/cycles`, {})).body;
        if (!cycle.cycleId) break;
        for (const m of cycle.messages)
          got.set(m.callId, [...(got.get(m.callId) ?? []), `${agentId}:${m.result.confirmed}`]);
        expect((await post(`${second.url}/api/agents/${agentId}/cycles/${cycle.cycleId}/done`, {})).status).toBe(200);
      }
    }
    expect(got.size).toBe(N);
    for (let i = 0; i < N; i++) expect(got.get(`kill-${i}`)).toEqual([`${agents[i % 4]}:${i}`]);
    const { messages } = (await (await fetch(`${second.url}/api/spaces/kill-room/messages?limit=500`)).json()) as {
      messages: SpaceMessage[];
    };
    expect(messages.filter((m) => m.kind === 'tool_call' && m.status === 'complete')).toHaveLength(N);

    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
  }, 90_000);

  it('survives SIGKILL with 500 open async calls: every late result reaches the inbox, none twice', async () => {
    const N = 500;
    const first = await serve();
    expect(first.banner).toContain('auth: no tokens: open to clients on this machine only');
    await enterSpace(first.url, 'crash-room', ['agent-crash']);
    const opened = await inParallel(N, 16, (i) =>
      post(`${first.url}/api/runs/run-crash/tool-calls`, {
        agentId: 'agent-crash',
        name: 'confirmAction',
        input: { n: i },
        callId: `crash-${i}`,
      }),
    );
    expect(opened.every((r) => r.status === 200 && r.body.status === 'pending')).toBe(true);

    first.child.kill('SIGKILL');
    expect(await exited(first.child)).toBe(null);

    const second = await serve();
    const submitted = await inParallel(N, 16, (i) =>
      post(`${second.url}/api/runs/run-crash/tool-results`, { callId: `crash-${i}`, result: { confirmed: i } }),
    );
    expect(submitted.filter((r) => r.status === 200 && r.body.delivered === 'inbox')).toHaveLength(N);
    const twice = await inParallel(20, 8, (i) =>
      post(`${second.url}/api/runs/run-crash/tool-results`, { callId: `crash-${i}`, result: 'again' }),
    );
    expect(twice.every((r) => r.status === 409)).toBe(true);

    const { messages: inbox } = (await (
      await fetch(`${second.url}/api/agents/agent-crash/inbox?limit=1000`)
    ).json()) as {
      messages: { callId: string; result: { confirmed: number } }[];
    };
    expect(inbox).toHaveLength(N);
    expect(new Set(inbox.map((m) => m.callId)).size).toBe(N);
    expect(inbox.every((m) => m.result.confirmed === Number(m.callId.slice('crash-'.length)))).toBe(true);

    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
  }, 60_000);

  it('says when tokens are required, and refuses an open address without them', async () => {
    const guarded = await serve(['--host', '0.0.0.0'], { TOOLBELT_GATEWAY_TOKEN: 'a-long-enough-admin-token' });
    expect(guarded.banner).toContain('auth: 1 token required');
    expect((await fetch(guarded.url.replace('0.0.0.0', '127.0.0.1') + '/api/tools')).status).toBe(401);
    guarded.child.kill('SIGTERM');
    expect(await exited(guarded.child)).toBe(0);

    const refused = spawnSync(process.execPath, [bin, 'serve', '--root', dir, '--host', '0.0.0.0', '--port', '0'], {
      encoding: 'utf8',
      env: ENV,
    });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('refusing to listen on 0.0.0.0 without tokens');
    const badPort = spawnSync(process.execPath, [bin, 'serve', '--root', dir, '--port', 'http'], {
      encoding: 'utf8',
      env: ENV,
    });
    expect([badPort.status, badPort.stderr.trim()]).toEqual([
      2,
      'toolbelt serve: --port must be an integer from 0 to 65535, not "http"',
    ]);
  }, 30_000);

  it('refuses a declared tool it cannot serve with a usage error that names the tool and the fix', () => {
    const root = mkdtempSync(join(tmpdir(), 'tb-serve-declared-'));
    const start = (tool: Record<string, unknown>) => {
      writeFileSync(
        join(root, 'toolbelt.config.json'),
        JSON.stringify({ tools: [{ description: 'A declared tool.', inputSchema: { type: 'object' }, ...tool }] }),
      );
      trustConfig(join(root, 'toolbelt.config.json'), ENV);
      const r = spawnSync(process.execPath, [bin, 'serve', '--root', root, '--port', '0'], {
        encoding: 'utf8',
        env: ENV,
      });
      return [r.status, r.stderr.trim()];
    };
    try {
      expect(start({ name: 'read_file', executionType: 'internal' })).toEqual([
        2,
        'toolbelt serve: config tools: "read_file" is already the name of another tool; rename it',
      ]);
      expect(start({ name: 'notify', executionType: 'gateway' })).toEqual([
        2,
        'toolbelt serve: config tools: "notify": executionType "gateway" makes an HTTP request, so it needs execution.url',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 30_000);

  it('keeps its database outside the workspace, in the user state directory', async () => {
    const s = await serve();
    const db = /db: (\S+)/.exec(s.banner)![1];
    expect(db.startsWith(join(stateHome, 'toolbelt') + '/')).toBe(true);
    expect(db).toMatch(/\/tb-serve-\w+-[0-9a-f]{16}\/gateway\.db$/);
    expect(existsSync(join(dir, '.toolbelt', 'gateway.db'))).toBe(false);
    expect(statSync(join(db, '..')).mode & 0o777).toBe(0o700);
    s.child.kill('SIGTERM');
    expect(await exited(s.child)).toBe(0);

    // A database left in the workspace by an older toolbelt is named, not used.
    const old = mkdtempSync(join(tmpdir(), 'tb-serve-legacy-'));
    try {
      mkdirSync(join(old, '.toolbelt'));
      writeFileSync(join(old, '.toolbelt', 'gateway.db'), '');
      const l = await serve([], {}, old);
      expect(l.banner).toContain(
        `note: ${join(old, '.toolbelt', 'gateway.db')} is from an older toolbelt and is no longer used`,
      );
      l.child.kill('SIGTERM');
      expect(await exited(l.child)).toBe(0);
      expect(statSync(join(old, '.toolbelt', 'gateway.db')).size).toBe(0);
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
  }, 30_000);

  it('refuses a foreign Host or Origin on every route, before anything runs (DNS rebinding)', async () => {
    const s = await serve();
    const port = new URL(s.url).port;
    const routes: [string, string][] = [
      ['GET', '/healthz'],
      ['GET', '/api/openapi.json'],
      ['GET', '/api/tools'],
      ['GET', '/api/tool-calls'],
      ['GET', '/api/events'],
      ['GET', '/metrics'],
      ['POST', '/api/runs/rebound/tool-calls'],
      ['GET', '/nowhere'],
    ];
    for (const [method, path] of routes) {
      const res = await raw(s.url, path, { host: `attacker.example:${port}` }, method);
      expect([path, res.status]).toEqual([path, 403]);
      expect(JSON.parse(res.body).error.message).toMatch(
        /^Host "attacker\.example:\d+" is not allowed: .* add "attacker\.example" to gateway\.allowedHosts in the config\.$/,
      );
      const origin = await raw(s.url, path, { host: `127.0.0.1:${port}`, origin: 'http://attacker.example' }, method);
      expect([path, origin.status]).toEqual([path, 403]);
      expect(JSON.parse(origin.body).error.message).toMatch(/^Origin "http:\/\/attacker\.example" is not allowed/);
    }
    expect((await raw(s.url, '/healthz', { host: `localhost:${port}`, origin: 'http://localhost:5173' })).status).toBe(
      200,
    );
    expect((await raw(s.url, '/healthz', { host: '[::1]' })).status).toBe(200);
    const calls = JSON.parse((await raw(s.url, '/api/tool-calls?runId=rebound', { host: `127.0.0.1:${port}` })).body);
    expect(calls.calls).toEqual([]);
    s.child.kill('SIGTERM');
    expect(await exited(s.child)).toBe(0);
  }, 30_000);

  it('keeps the log of HTTP calls and their "always" approvals in the gateway database, none in the workspace', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tb-serve-one-'));
    try {
      const s = await serve([], {}, root);
      const asked = post(`${s.url}/api/runs/run-one/tool-calls`, {
        agentId: 'agent-one',
        name: 'write_file',
        input: { path: 'one.txt', content: 'one' },
        callId: 'one-1',
      });
      for (let i = 0; i < 1000; i++) {
        const call = (await (await fetch(`${s.url}/api/tool-calls/one-1`)).json()) as { status?: string };
        if (call.status === 'awaiting_approval') break;
        await new Promise((r) => setTimeout(r, 10));
      }
      expect((await post(`${s.url}/api/tool-calls/one-1/approve`, { scope: 'always' })).status).toBe(200);
      expect((await asked).body).toMatchObject({ status: 'success', approvedBy: 'user' });
      const again = await post(`${s.url}/api/runs/run-one/tool-calls`, {
        agentId: 'agent-one',
        name: 'write_file',
        input: { path: 'two.txt', content: 'two' },
      });
      expect(again.body).toMatchObject({ status: 'success', approvedBy: 'remembered' });
      const listed = (await (await fetch(`${s.url}/api/executions?tool=write_file`)).json()) as {
        entries: { origin?: string }[];
      };
      expect(listed.entries.map((e) => e.origin)).toEqual(['http', 'http']);
      s.child.kill('SIGTERM');
      expect(await exited(s.child)).toBe(0);
      // Every agent's calls stay outside the workspace, where agents' commands could read them.
      expect(existsSync(join(root, '.toolbelt', 'executions.jsonl'))).toBe(false);
      expect(existsSync(join(root, '.toolbelt', 'approvals.json'))).toBe(false);
      const logged = spawnSync(process.execPath, [bin, 'log', '--root', root, '--json'], {
        encoding: 'utf8',
        env: ENV,
      });
      const entries = logged.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(entries.map((e) => [e.tool, e.origin, e.approvedBy, e.source])).toEqual([
        ['write_file', 'http', 'user', 'gateway'],
        ['write_file', 'http', 'remembered', 'gateway'],
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 30_000);

  it('authenticates hashed tokens and tokens from a file, and answers configured hosts', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tb-serve-tokens-'));
    const hashed = 'hashed-token-0123456789abcdef';
    const fromFile = 'file-token-0123456789abcdef';
    writeFileSync(join(stateHome, 'admin.token'), `${fromFile}\n`, { mode: 0o600 });
    const sha = `sha256:${createHash('sha256').update(hashed).digest('hex')}`;
    writeFileSync(
      join(root, 'toolbelt.config.json'),
      JSON.stringify({
        gateway: {
          allowedHosts: ['toolbelt.internal'],
          tokens: [
            { tokenHash: sha, roles: ['call'] },
            { tokenFile: join(stateHome, 'admin.token'), roles: ['admin'] },
          ],
        },
      }),
    );
    trustConfig(join(root, 'toolbelt.config.json'), ENV);
    try {
      const s = await serve([], {}, root);
      expect(s.banner).toContain('auth: 2 tokens required');
      const as = (token: string, host = 'toolbelt.internal:7077') =>
        raw(s.url, '/api/tools', { host, authorization: `Bearer ${token}` }).then((r) => r.status);
      expect([await as(hashed), await as(fromFile), await as(sha), await as('wrong-token-0123456789abcdef')]).toEqual([
        200, 200, 401, 401,
      ]);
      expect(await as(hashed, 'other.internal')).toBe(403);
      s.child.kill('SIGTERM');
      expect(await exited(s.child)).toBe(0);

      writeFileSync(
        join(root, 'toolbelt.config.json'),
        JSON.stringify({ gateway: { tokens: [{ tokenFile: 'relative.token', roles: ['call'] }] } }),
      );
      trustConfig(join(root, 'toolbelt.config.json'), ENV);
      const bad = spawnSync(process.execPath, [bin, 'serve', '--root', root, '--port', '0'], {
        encoding: 'utf8',
        env: ENV,
      });
      expect([bad.status, bad.stderr.trim()]).toEqual([
        2,
        'toolbelt serve: gateway.tokens[0]: tokenFile must be an absolute path (keep the file outside the workspace), not "relative.token"',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 30_000);
});
