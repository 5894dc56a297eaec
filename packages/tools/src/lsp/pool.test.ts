// The pool's lifecycle against a tiny real language server (fixture) configured like any other.
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Executor, Policy, textOf, ToolRegistry, type ToolContext } from '@toolbelt/core';
import { WorkspaceGuard } from '../workspace/guard.js';
import { Sandbox } from '../sandbox/sandbox.js';
import { sandboxSettings } from '../sandbox/settings.js';
import { createLsp, type Lsp, type LspOptions } from './index.js';

const server = join(import.meta.dirname, '__fixtures__', 'fake-server.mjs');
let root: string;
let marker: string;
const open: { lsp: Lsp; executor: Executor }[] = [];

// The pool's lifecycle, not the sandbox (sandbox.test.ts): the fake server writes its crash-once
// marker into the root, which the sandbox's read-only profile would not let it do.
const unsandboxed = new Sandbox(sandboxSettings(undefined, { overrides: { mode: 'off' } }));

function setup(opts: Partial<LspOptions> = {}, command = process.execPath) {
  const lsp = createLsp({
    config: { fake: { command, args: [server, marker], extensions: ['fake'] } },
    sandbox: unsandboxed,
    ...opts,
  });
  const executor = new Executor({
    registry: new ToolRegistry().registerAll(lsp.tools),
    policy: new Policy({ mode: 'yolo' }),
    workspace: new WorkspaceGuard({ roots: [root] }),
  });
  open.push({ lsp, executor });
  const spec = lsp.runtime.specs.find((s) => s.name === 'fake')!;
  return {
    lsp,
    executor,
    peek: () => lsp.pool.peek(spec, root),
    call: (tool: string, input: unknown) => executor.call({ tool, input }),
  };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!check()) throw new Error(`gave up waiting: ${what}`);
}

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'toolbelt-lsp-pool-')));
  writeFileSync(join(root, 'ok.fake'), 'hello\n');
  writeFileSync(join(root, 'bad.fake'), 'a bad line\n');
  writeFileSync(join(root, 'once.fake'), 'crash-once\n');
  writeFileSync(join(root, 'always.fake'), 'crash-always\n');
  writeFileSync(join(root, 'silent.fake'), 'silent\n');
});

let n = 0;
beforeEach(() => {
  marker = join(root, `marker-${n++}`);
});

afterEach(async () => {
  for (const { executor } of open.splice(0)) await executor.close();
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('LSP server pool', () => {
  it('starts a configured server for its extension and reuses it while warm', async () => {
    const { call, lsp } = setup();
    const first = textOf(await call('code_lookup', { what: 'hover', path: 'ok.fake', line: 1, column: 1 }));
    const second = textOf(await call('code_lookup', { what: 'hover', path: 'bad.fake', line: 1, column: 1 }));
    expect(first).toMatch(/^pid \d+$/);
    expect(second).toBe(first);
    expect(lsp.pool.starts).toBe(1);
    expect(textOf(await call('diagnostics', { path: 'bad.fake' }))).toBe(
      'bad.fake: 1 error, 0 warnings\nbad.fake:1:3 error fake F1: bad word',
    );
  });

  it('shuts an idle server down, and starts a new one when needed again', async () => {
    const { call, lsp, peek } = setup({ idleMs: 50 });
    await call('code_lookup', { what: 'hover', path: 'ok.fake', line: 1, column: 1 });
    const pid = (await peek())!.pid!;
    await until(() => lsp.pool.size === 0 && !alive(pid), 'idle shutdown');
    const again = textOf(await call('code_lookup', { what: 'hover', path: 'ok.fake', line: 1, column: 1 }));
    expect(again).not.toBe(`pid ${pid}`);
    expect(lsp.pool.starts).toBe(2);
  });

  it('restarts a server that crashes during a request and retries the request once', async () => {
    const { call, lsp } = setup();
    const r = await call('code_lookup', { what: 'hover', path: 'once.fake', line: 1, column: 1 });
    expect(r.status).toBe('success');
    expect(existsSync(marker)).toBe(true);
    expect(lsp.pool.starts).toBe(2);
  });

  it('reports a server that crashes again, with what it wrote to stderr', async () => {
    const { call } = setup();
    const r = await call('code_lookup', { what: 'hover', path: 'always.fake', line: 1, column: 1 });
    expect(r.error?.code).toBe('EXECUTION_FAILED');
    expect(r.error?.message).toContain('language server "fake" exited (exit code 3): fake server: crashing on purpose');
    expect(textOf(await call('code_lookup', { what: 'hover', path: 'ok.fake', line: 1, column: 1 }))).toMatch(
      /^pid \d+$/,
    );
  });

  it('reports a server that publishes no diagnostics in time as a recoverable timeout', async () => {
    const { call } = setup({ diagnosticsTimeoutMs: 200 });
    const r = await call('diagnostics', { path: 'silent.fake' });
    expect(r.error).toMatchObject({ code: 'TIMEOUT', recoverable: true });
    expect(r.error?.message).toBe(
      'fake published no diagnostics for silent.fake within 0.2 s; it may still be loading the project. Call diagnostics again.',
    );
  });

  it('says how to fix a server command that does not exist', async () => {
    const { call } = setup({}, '/nonexistent/fake-langserver');
    const r = await call('code_lookup', { what: 'hover', path: 'ok.fake', line: 1, column: 1 });
    expect(r.error?.code).toBe('EXECUTION_FAILED');
    expect(r.error?.message).toContain(
      'could not start language server "fake" (/nonexistent/fake-langserver): not found on PATH',
    );
  });

  it('closing the executor shuts every server down and refuses later calls', async () => {
    const { call, executor, lsp, peek } = setup();
    await call('code_lookup', { what: 'hover', path: 'ok.fake', line: 1, column: 1 });
    const pid = (await peek())!.pid!;
    await executor.close();
    expect(lsp.pool.size).toBe(0);
    await until(() => !alive(pid), 'server exit');
    const lookup = lsp.tools.find((t) => t.name === 'code_lookup')!;
    const input = { what: 'hover', include_declaration: true, path: 'ok.fake', line: 1, column: 1 };
    const r = await Promise.resolve()
      .then(() => lookup.execute!(input, ctxFor()))
      .then(
        () => undefined,
        (e: Error) => e.message,
      );
    expect(r).toContain('shut down');
  });
});

function ctxFor(): ToolContext {
  return {
    callId: 't',
    tool: 'code_lookup',
    signal: new AbortController().signal,
    sessionId: 's',
    workspace: new WorkspaceGuard({ roots: [root] }),
    state: new Map(),
    emit() {},
    elicit: async () => ({ action: 'decline' }),
  };
}
