// Two `toolbelt serve` processes on one PostgreSQL database: a call waiting on one is resolved by a
// result posted to the other, each streams the other's events in one order (resumable on either),
// and after SIGKILL of one with 200 open async calls every result posted to the other reaches the
// inbox once, and is handed to one think cycle only. toolbelt log reads the same database.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustConfig } from '../__fixtures__/trust.js';
import { dropSchemas, freshSchema, PG_URL, pgAvailable } from '../../../gateway/src/__fixtures__/pg.js';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const bin = join(repo, 'packages/cli/bin/toolbelt.js');
const dir = mkdtempSync(join(tmpdir(), 'tb-serve-pg-'));
const stateHome = mkdtempSync(join(tmpdir(), 'tb-serve-pg-state-'));
const ENV = {
  ...process.env,
  TOOLBELT_GATEWAY_TOKEN: '',
  TOOLBELT_GATEWAY_TOKEN_FILE: '',
  TOOLBELT_DB: '',
  XDG_STATE_HOME: stateHome,
};
const children = new Set<ChildProcess>();
const schema = freshSchema('serve');
const DB = `${PG_URL}?schema=${schema}`;

beforeAll(() => {
  if (!pgAvailable) return;
  // The CLI runs from its build: bring it up to date when a source it runs is newer (npm test builds first).
  const stale = (dist: string, src: string) =>
    !existsSync(join(repo, dist)) || statSync(join(repo, dist)).mtimeMs < statSync(join(repo, src)).mtimeMs;
  if (
    stale('packages/cli/dist/commands/serve.js', 'packages/cli/src/commands/serve.ts') ||
    stale('packages/gateway/dist/store/pg/store.js', 'packages/gateway/src/store/pg/store.ts')
  ) {
    const tsc = spawnSync(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), '-b', 'packages/cli'], {
      cwd: repo,
      encoding: 'utf8',
    });
    if (tsc.status !== 0)
      throw new Error(`the CLI does not build, so toolbelt serve cannot be tested:\n${tsc.stdout}${tsc.stderr}`);
  }
  const tool = (name: string, isAsync: boolean) => ({
    name,
    description: `${name}: its result is posted to /api/runs/:runId/tool-results.`,
    inputSchema: { type: 'object', properties: { n: { type: 'integer' } } },
    executionType: 'external',
    visible: false,
    isAsync,
    timeout: 60_000,
  });
  writeFileSync(
    join(dir, 'toolbelt.config.json'),
    JSON.stringify({ tools: [tool('waitFor', false), tool('later', true)] }),
  );
  trustConfig(join(dir, 'toolbelt.config.json'), ENV);
}, 120_000);
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
  rmSync(stateHome, { recursive: true, force: true });
  if (pgAvailable) await dropSchemas();
}, 60_000);

function serve(args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [bin, 'serve', '--root', dir, '--port', '0', '--mode', 'yolo', ...args], {
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
      if (m) resolve({ child, url: m[1] });
    });
    child.stderr!.on('data', (d) => (err += d));
    child.on('exit', (code) => reject(new Error(`toolbelt serve exited with ${code}: ${err}${out}`)));
  });
}

const post = async (url: string, body: unknown) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};
const exited = (child: ChildProcess) =>
  new Promise<number | null>((r) =>
    child.exitCode !== null ? r(child.exitCode) : child.on('exit', (code) => r(code)),
  );

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

interface Frame {
  id: number;
  event: string;
  data: any;
}

/** An SSE stream read frame by frame. */
async function events(
  url: string,
  lastEventId?: number,
): Promise<{ next(match: (f: Frame) => boolean): Promise<Frame>; close(): void }> {
  const ac = new AbortController();
  const res = await fetch(`${url}/api/events`, {
    signal: ac.signal,
    headers: lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) },
  });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const read = async (): Promise<Frame> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const text = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const fields = new Map([...text.matchAll(/^(\w+): ?(.*)$/gm)].map((m) => [m[1], m[2]]));
        const field = (name: string) => fields.get(name);
        if (field('id') && field('data'))
          return { id: Number(field('id')), event: field('event') ?? 'message', data: JSON.parse(field('data')!) };
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the event stream ended');
      buffer += value;
    }
  };
  return {
    async next(match) {
      for (;;) {
        const f = await read();
        if (match(f)) return f;
      }
    },
    close: () => ac.abort(),
  };
}

describe.skipIf(!pgAvailable)('toolbelt serve: two instances on one PostgreSQL database', () => {
  it('refuses to start on a database it cannot reach, saying which and why', async () => {
    await expect(serve(['--db', 'postgres://postgres:pw@127.0.0.1:1/test'])).rejects.toThrow(
      /exited with 2: .*cannot open the gateway database postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/test: .*ECONNREFUSED/,
    );
  });

  it('resolves a call waiting on A with a result posted to B, and streams B’s events from A, resumable on B', async () => {
    const [a, b] = await Promise.all([serve(['--db', DB]), serve([], { TOOLBELT_DB: DB })]);
    const streamA = await events(a.url);
    await streamA.next((f) => f.event === 'ready');

    const waiting = post(`${a.url}/api/runs/r1/tool-calls`, {
      agentId: 'ag',
      name: 'waitFor',
      input: { n: 1 },
      callId: 'wait-1',
    });
    for (let i = 0; i < 400; i++) {
      const call = (await (await fetch(`${b.url}/api/tool-calls/wait-1`)).json()) as { status?: string };
      if (call.status === 'waiting') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const submitted = await post(`${b.url}/api/runs/r1/tool-results`, { callId: 'wait-1', result: { answer: 42 } });
    expect(submitted).toMatchObject({ status: 200, body: { delivered: 'inline' } });
    expect(await waiting).toMatchObject({ status: 200, body: { status: 'success', structured: { answer: 42 } } });

    const resolvedOnB = await streamA.next((f) => f.event === 'pending.resolved' && f.data.callId === 'wait-1');
    expect(
      (await post(`${b.url}/api/runs/r2/tool-calls`, { agentId: 'ag', name: 'later', input: {}, callId: 'later-1' }))
        .body.status,
    ).toBe('pending');
    const createdOnB = await streamA.next((f) => f.event === 'pending.created' && f.data.callId === 'later-1');
    expect(createdOnB.id).toBeGreaterThan(resolvedOnB.id);
    streamA.close();

    // Resumed on B from an id A gave out: the same events, in the same order.
    const streamB = await events(b.url, resolvedOnB.id);
    expect((await streamB.next((f) => f.event === 'pending.created' && f.data.callId === 'later-1')).id).toBe(
      createdOnB.id,
    );
    streamB.close();

    a.child.kill('SIGTERM');
    b.child.kill('SIGTERM');
    expect([await exited(a.child), await exited(b.child)]).toEqual([0, 0]);

    // toolbelt log reads the same database.
    const log = spawnSync(
      process.execPath,
      [bin, 'log', '--root', dir, '--db', DB, '--source', 'gateway', '--tool', 'waitFor'],
      {
        env: ENV,
        encoding: 'utf8',
      },
    );
    expect(log.status).toBe(0);
    expect(log.stdout).toMatch(/success .* waitFor .* wait-1/);
  }, 90_000);

  it('after SIGKILL of A with 200 pending async calls, every result posted to B reaches the inbox once, and one think cycle', async () => {
    const N = 200;
    const [a, b] = await Promise.all([serve(['--db', DB]), serve(['--db', DB])]);
    const opened = await inParallel(N, 16, (i) =>
      post(`${a.url}/api/runs/run-k/tool-calls`, {
        agentId: 'agent-k',
        name: 'later',
        input: { n: i },
        callId: `k-${i}`,
      }),
    );
    expect(opened.every((r) => r.status === 200 && r.body.status === 'pending')).toBe(true);

    a.child.kill('SIGKILL');
    expect(await exited(a.child)).toBe(null);

    const submitted = await inParallel(N, 16, (i) =>
      post(`${b.url}/api/runs/run-k/tool-results`, { callId: `k-${i}`, result: { n: i } }),
    );
    expect(submitted.filter((r) => r.status === 200 && r.body.delivered === 'inbox')).toHaveLength(N);
    const twice = await inParallel(20, 8, (i) =>
      post(`${b.url}/api/runs/run-k/tool-results`, { callId: `k-${i}`, result: 'again' }),
    );
    expect(twice.every((r) => r.status === 409)).toBe(true);
    const { messages: inbox } = (await (await fetch(`${b.url}/api/agents/agent-k/inbox?limit=1000`)).json()) as {
      messages: { callId: string; result: { n: number } }[];
    };
    expect(inbox).toHaveLength(N);
    expect(new Set(inbox.map((m) => m.callId)).size).toBe(N);
    expect(inbox.every((m) => m.result.n === Number(m.callId.slice(2)))).toBe(true);

    // A restarted and B take think cycles at once: each message goes to one cycle only.
    const a2 = await serve(['--db', DB]);
    const taken = await inParallel(
      40,
      8,
      async (i) => (await post(`${(i % 2 ? a2 : b).url}/api/agents/agent-k/cycles?limit=10`, {})).body,
    );
    const ids = taken.flatMap((c) => c.messages.map((m: { callId: string }) => m.callId));
    expect(ids).toHaveLength(N);
    expect(new Set(ids).size).toBe(N);

    a2.child.kill('SIGTERM');
    b.child.kill('SIGTERM');
    expect([await exited(a2.child), await exited(b.child)]).toEqual([0, 0]);
  }, 120_000);
});
