// `toolbelt serve` as a real process: crash safety under SIGKILL, the token state it prints, and
// its refusal to listen on an open address without tokens.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const bin = join(repo, 'packages/cli/bin/toolbelt.js');
const dir = mkdtempSync(join(tmpdir(), 'tb-serve-'));
const children = new Set<ChildProcess>();

const tsc = (...args: string[]) => spawnSync(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), ...args], { cwd: repo, encoding: 'utf8' });

beforeAll(() => {
  // The CLI runs from dist: bring the gateway and the CLI up to date with their sources.
  const gateway = tsc('-b', 'packages/gateway');
  if (gateway.status !== 0) throw new Error(`the gateway does not build, so toolbelt serve cannot be tested:\n${gateway.stdout}${gateway.stderr}`);
  // A type error in a package being edited elsewhere must not stop this test: emit the CLI anyway.
  if (tsc('-b', 'packages/cli').status !== 0) tsc('-p', 'packages/cli/tsconfig.json');
  if (statSync(join(repo, 'packages/cli/dist/commands/serve.js')).mtimeMs < statSync(join(repo, 'packages/cli/src/commands/serve.ts')).mtimeMs) {
    throw new Error('packages/cli/dist is older than its sources and could not be rebuilt; run npm run build');
  }
  writeFileSync(
    join(dir, 'toolbelt.config.json'),
    JSON.stringify({ tools: [{ name: 'confirmAction', description: 'Ask the user to confirm.', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } }, executionType: 'space', isAsync: true }] }),
  );
}, 120_000);
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `toolbelt serve` and resolves with its URL and what it printed, once it listens. */
function serve(args: string[] = [], env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string; banner: string }> {
  const child = spawn(process.execPath, [bin, 'serve', '--root', dir, '--port', '0', ...args], { env: { ...process.env, TOOLBELT_GATEWAY_TOKEN: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < n) {
      const i = next++;
      out[i] = await fn(i);
    }
  }));
  return out;
}

const post = async (url: string, body: unknown) => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
};
const exited = (child: ChildProcess) => new Promise<number | null>((r) => (child.exitCode !== null ? r(child.exitCode) : child.on('exit', (code) => r(code))));

describe('toolbelt serve', () => {
  it('survives SIGKILL with 500 open async calls: every late result reaches the inbox, none twice', async () => {
    const N = 500;
    const first = await serve();
    expect(first.banner).toContain('auth: no tokens: open to clients on this machine only');
    const opened = await inParallel(N, 16, (i) => post(`${first.url}/api/runs/run-crash/tool-calls`, { agentId: 'agent-crash', name: 'confirmAction', input: { n: i }, callId: `crash-${i}` }));
    expect(opened.every((r) => r.status === 200 && r.body.status === 'pending')).toBe(true);

    first.child.kill('SIGKILL');
    expect(await exited(first.child)).toBe(null);

    const second = await serve();
    const submitted = await inParallel(N, 16, (i) => post(`${second.url}/api/runs/run-crash/tool-results`, { callId: `crash-${i}`, result: { confirmed: i } }));
    expect(submitted.filter((r) => r.status === 200 && r.body.delivered === 'inbox')).toHaveLength(N);
    const twice = await inParallel(20, 8, (i) => post(`${second.url}/api/runs/run-crash/tool-results`, { callId: `crash-${i}`, result: 'again' }));
    expect(twice.every((r) => r.status === 409)).toBe(true);

    const inbox = (await (await fetch(`${second.url}/api/agents/agent-crash/inbox?limit=1000`)).json()).messages as { callId: string; result: { confirmed: number } }[];
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

    const refused = spawnSync(process.execPath, [bin, 'serve', '--root', dir, '--host', '0.0.0.0', '--port', '0'], { encoding: 'utf8', env: { ...process.env, TOOLBELT_GATEWAY_TOKEN: '' } });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('refusing to listen on 0.0.0.0 without tokens');
    const badPort = spawnSync(process.execPath, [bin, 'serve', '--root', dir, '--port', 'http'], { encoding: 'utf8' });
    expect([badPort.status, badPort.stderr.trim()]).toEqual([2, 'toolbelt serve: --port must be an integer from 0 to 65535, not "http"']);
  }, 30_000);
});
