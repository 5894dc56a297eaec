// A stdio MCP server started by the CLI runtime runs in the sandbox: it writes only inside the
// workspace, does not see hidden secrets, has no network unless its config allows it, and runs
// under the sandbox's limits.
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { textOf } from '@toolbelt/core';
import { probeSandbox } from '@toolbelt/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_SERVER } from '../../mcp/src/__fixtures__/servers.js';
import { isolatedState, writeTrustedConfig } from './__fixtures__/trust.js';
import { defaultProviders } from './providers.js';
import { createRuntime } from './runtime.js';

const status = await probeSandbox('bwrap');
if (!status.ok && process.env.TOOLBELT_REQUIRE_SANDBOX === '1')
  throw new Error(`TOOLBELT_REQUIRE_SANDBOX=1 but the sandbox does not work here: ${status.reason}`);
if (!status.ok) console.warn(`sandbox tests skipped: ${status.reason} (${status.hint})`);

// Not under /tmp: the sandbox's own /tmp would hide it for another reason.
const home = mkdtempSync(join(dirname(fileURLToPath(import.meta.url)), '.home-'));
mkdirSync(join(home, '.ssh'));
writeFileSync(join(home, '.ssh', 'id_rsa'), 'PRIVATE-KEY-MATERIAL\n');
writeFileSync(join(home, 'notes.txt'), 'visible notes\n');
const state = isolatedState();
const roots: string[] = [state.XDG_STATE_HOME];
let http: Server;
let url = '';
let hits = 0;

beforeAll(async () => {
  http = createServer((_req, res) => {
    hits++;
    res.end('pong');
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => http.close(() => resolve()));
  for (const r of roots) rmSync(r, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

/** A runtime whose config has the fixture server as "fx", and a call to its fs_probe tool. */
async function withServer(
  config: Record<string, unknown>,
  fn: (probe: (input: Record<string, string>) => Promise<string>, root: string) => Promise<void>,
) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tb-stdio-sbx-')));
  roots.push(root);
  const server = {
    command: process.execPath,
    args: [FIXTURE_SERVER],
    allowedTools: ['fs_probe', 'limits'],
    ...(config.server as object),
  };
  const env = { ...process.env, HOME: home, ...state };
  writeTrustedConfig(
    root,
    { mode: 'yolo', mcpServers: { fx: server }, ...(config.sandbox ? { sandbox: config.sandbox } : {}) },
    env,
  );
  const rt = await createRuntime(
    { root: [root] },
    { providers: defaultProviders({ mcp: { warn: () => {} } }), env, warn: () => {} },
  );
  try {
    await fn(
      async (input) =>
        textOf(await rt.executor.call({ tool: input.tool ?? 'fx__fs_probe', input: input.tool ? {} : input })),
      root,
    );
  } finally {
    await rt.close();
  }
}

describe.skipIf(!status.ok)('stdio MCP servers in the sandbox', () => {
  it('write only inside the workspace and do not see hidden secrets', async () => {
    await withServer({}, async (probe, root) => {
      const out = await probe({ write: join(home, 'from-server.txt'), read: join(home, '.ssh', 'id_rsa') });
      expect(out).toBe(`write ${home}/from-server.txt: EROFS\nread ${home}/.ssh/id_rsa: ENOENT`);
      expect(existsSync(join(home, 'from-server.txt'))).toBe(false);
      expect(await probe({ write: join(root, 'from-server.txt'), read: join(home, 'notes.txt') })).toBe(
        `write ${root}/from-server.txt: ok\nread ${home}/notes.txt: "visible notes\\n"`,
      );
      expect(readFileSync(join(root, 'from-server.txt'), 'utf8')).toBe('from the server\n');
    });
  });

  it('have no network unless their config allows it', async () => {
    hits = 0;
    await withServer({}, async (probe) => expect(await probe({ url })).toBe(`fetch ${url}: ECONNREFUSED`));
    expect(hits).toBe(0);
    await withServer({ server: { network: true } }, async (probe) =>
      expect(await probe({ url })).toBe(`fetch ${url}: 200`),
    );
    expect(hits).toBe(1);
  });

  it("run under the sandbox's limits, the server's own winning", async () => {
    await withServer({ server: { limits: { openFiles: 256 } } }, async (probe) => {
      const limits = await probe({ tool: 'fx__limits' });
      expect(limits).toMatch(/Max open files\s+256\s+256/);
      expect(limits).toMatch(/Max cpu time\s+3600\s+3600/);
      expect(limits).toMatch(/Max data size\s+1073741824\s+1073741824/);
    });
  });

  it('write anywhere with the sandbox off: what the sandbox prevents', async () => {
    await withServer({ sandbox: { mode: 'off' } }, async (probe) => {
      expect(await probe({ write: join(home, 'from-server.txt') })).toBe(`write ${home}/from-server.txt: ok`);
    });
    expect(existsSync(join(home, 'from-server.txt'))).toBe(true);
    rmSync(join(home, 'from-server.txt'));
  });
});
