// The workspace is untrusted: a planted node_modules/typescript/lib/tsserver.js (which would leave
// a marker and its environment on the host) never runs when the LSP tools start
// typescript-language-server, and the server's processes hold none of toolbelt's secrets.
// Checked by effect, with a control where the planted tsserver does run.
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
  mkdirSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Executor, Policy, textOf, ToolRegistry } from '@toolbelt/core';
import { Sandbox } from '../sandbox/sandbox.js';
import { sandboxSettings } from '../sandbox/settings.js';
import { probeSandbox } from '../sandbox/probe.js';
import { WorkspaceGuard } from '../workspace/guard.js';
import { createLsp, type Lsp, type LspOptions } from './index.js';
import { ownTsserver, typescriptLanguageServerBin } from './servers.js';

const fixture = join(import.meta.dirname, '__fixtures__', 'project');
const id = `tb-tsserver-${process.pid}`;
const sandboxWorks = (await probeSandbox('bwrap')).ok;
let root: string;
let outside: string;
const open: Executor[] = [];

const ran = () => existsSync(`/tmp/${id}`) || existsSync(join(outside, 'ran'));
const off = () => new Sandbox(sandboxSettings(undefined, { overrides: { mode: 'off' } }));
/** typescript-language-server as a user could configure it: no tsserver path, so it prefers the project's. */
const unpinned = {
  typescript: { command: process.execPath, args: [typescriptLanguageServerBin(), '--stdio'], extensions: ['.ts'] },
};

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'toolbelt-lsp-planted-')));
  outside = realpathSync(mkdtempSync('/var/tmp/toolbelt-lsp-outside-'));
  cpSync(fixture, root, { recursive: true });
  const lib = join(root, 'node_modules', 'typescript', 'lib');
  mkdirSync(lib, { recursive: true });
  writeFileSync(join(root, 'node_modules', 'typescript', 'package.json'), '{"name":"typescript","version":"5.9.3"}\n');
  writeFileSync(
    join(lib, 'tsserver.js'),
    `const fs = require('fs');
try { fs.writeFileSync('/tmp/${id}', 'ran'); } catch {}
try { fs.writeFileSync(${JSON.stringify(join(outside, 'ran'))}, JSON.stringify(process.env)); } catch {}
process.exit(1);
`,
  );
  process.env.TOOLBELT_GATEWAY_TOKEN = 'tb-gateway-secret';
  process.env.OPENAI_API_KEY = 'sk-test-secret';
  process.env.TOOLBELT_LSP_PROBE = 'visible';
});

/** Until no process runs the planted tsserver: one that typescript-language-server restarted while it
 * was being closed would otherwise leave its marker after the cleanup below and fail the next test. */
async function plantedGone(): Promise<void> {
  const planted = join(root, 'node_modules', 'typescript');
  for (let i = 0; i < 200; i++) {
    const alive = readdirSync('/proc')
      .filter((n) => /^\d+$/.test(n))
      .some((n) => {
        try {
          return readFileSync(`/proc/${n}/cmdline`, 'utf8').includes(planted);
        } catch {
          return false;
        }
      });
    if (!alive) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

afterEach(async () => {
  for (const e of open.splice(0)) await e.close();
  await plantedGone();
  rmSync(`/tmp/${id}`, { force: true });
  rmSync(join(outside, 'ran'), { force: true });
});

afterAll(() => {
  delete process.env.TOOLBELT_GATEWAY_TOKEN;
  delete process.env.OPENAI_API_KEY;
  delete process.env.TOOLBELT_LSP_PROBE;
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

function setup(opts: LspOptions): { lsp: Lsp; symbols: () => Promise<{ ok: boolean; text: string }> } {
  const lsp = createLsp(opts);
  const executor = new Executor({
    registry: new ToolRegistry().registerAll(lsp.tools),
    policy: new Policy({ mode: 'yolo' }),
    workspace: new WorkspaceGuard({ roots: [root] }),
  });
  open.push(executor);
  return {
    lsp,
    symbols: async () => {
      const r = await executor.call({ tool: 'symbols', input: { path: 'src/shapes.ts' } });
      return { ok: r.status === 'success', text: textOf(r) };
    },
  };
}

/** The server's process and everything below it, by their parent ids in /proc. */
function tree(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const ppid = Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone
    }
  }
  const out = [pid];
  for (let i = 0; i < out.length; i++) out.push(...(parents.get(out[i]) ?? []));
  return out;
}

const procFile = (pid: number, file: string) => readFileSync(`/proc/${pid}/${file}`, 'utf8').split('\0');

describe('language servers and the workspace’s code', () => {
  it('control: unsandboxed and without a tsserver path, typescript-language-server runs the planted tsserver', async () => {
    const { symbols } = setup({ config: unpinned, sandbox: off() });
    await symbols();
    expect(ran()).toBe(true);
  });

  it.skipIf(!sandboxWorks)(
    'as toolbelt starts it: symbols works on toolbelt’s own tsserver, and the planted one never runs',
    async () => {
      const { lsp, symbols } = setup({});
      const r = await symbols();
      expect(r.ok, r.text).toBe(true);
      expect(r.text).toContain('class Circle — 7:14');
      const pid = (await lsp.pool.peek(
        lsp.runtime.specs.find((s) => s.name === 'typescript')!,
        root,
      ))!.pid!;
      const cmdlines = tree(pid).map((p) => procFile(p, 'cmdline').join(' '));
      expect(cmdlines.some((c) => c.includes(ownTsserver()))).toBe(true);
      expect(cmdlines.filter((c) => c.includes(join(root, 'node_modules')))).toEqual([]);
      expect(ran()).toBe(false);
    },
  );

  it('toolbelt’s own tsserver alone (sandbox off): the planted one never runs', async () => {
    const r = await setup({ sandbox: off() }).symbols();
    expect(r.ok, r.text).toBe(true);
    expect(ran()).toBe(false);
  });

  it.skipIf(!sandboxWorks)(
    'the sandbox alone (a configured server without a path): what runs inside leaves nothing on the host',
    async () => {
      // The planted tsserver is the one started (it exits at once, so no outline comes back), but inside.
      const r = await setup({ config: unpinned }).symbols();
      expect(r.text).not.toContain('class Circle');
      expect(ran()).toBe(false);
    },
  );

  it.skipIf(!sandboxWorks)('no process of the server holds a toolbelt token or an API key', async () => {
    const { lsp, symbols } = setup({});
    expect((await symbols()).ok).toBe(true);
    const pid = (await lsp.pool.peek(
      lsp.runtime.specs.find((s) => s.name === 'typescript')!,
      root,
    ))!.pid!;
    const envs = tree(pid).map((p) => procFile(p, 'environ'));
    // bubblewrap, its init, typescript-language-server and tsserver.
    expect(envs.length).toBeGreaterThanOrEqual(3);
    for (const env of envs) {
      expect(env).toContain('TOOLBELT_LSP_PROBE=visible');
      expect(env.filter((v) => /^(TOOLBELT_GATEWAY_TOKEN|OPENAI_API_KEY)=/.test(v) || v.includes('secret'))).toEqual(
        [],
      );
    }
  });
});
