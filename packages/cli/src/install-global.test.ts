// The install path for people who use toolbelt without developing it: `npm run install-global`
// (scripts/install-global.mjs) from the repository, into a temp npm prefix so nothing global
// changes. Then, from a directory that has nothing to do with the repository, the installed
// `toolbelt` says its version and where it runs from, and `toolbelt mcp` serves tools to the
// official MCP SDK client over stdio. Needs a build (npm run build), like the packed test.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { VERSION } from '@toolbelt/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** npm's own variables (set when this runs under `npm test`) would point npm back at the repo. */
const env = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')),
) as Record<string, string>;

let dir: string;
let prefix: string;
let elsewhere: string;
let toolbelt: string;

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'toolbelt-global-')));
  prefix = join(dir, 'prefix');
  elsewhere = join(dir, 'elsewhere');
  mkdirSync(elsewhere);
  writeFileSync(join(elsewhere, 'notes.txt'), 'hello from elsewhere\n');
  // --ignore-scripts: better-sqlite3 (the gateway's store) compiles for minutes where no prebuilt
  // binary can be fetched; --version and mcp do not need it. A user's install runs it.
  const args = [join(ROOT, 'scripts/install-global.mjs'), '--prefix', prefix, '--prefer-offline', '--ignore-scripts'];
  const r = spawnSync(process.execPath, args, { cwd: dir, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
  expect(r.stdout).toContain(`toolbelt is installed: ${join(prefix, 'bin', 'toolbelt')}`);
  toolbelt = join(prefix, 'bin', 'toolbelt');
}, 400_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 180_000);

describe('npm run install-global', () => {
  it('installs one global package, @toolbelt/cli, whose toolbelt says its version and where it runs from', () => {
    const ls = spawnSync('npm', ['ls', '--global', '--depth=0', '--json', '--prefix', prefix], {
      env,
      encoding: 'utf8',
    });
    expect(Object.keys(JSON.parse(ls.stdout).dependencies)).toEqual(['@toolbelt/cli']);
    const r = spawnSync(toolbelt, ['--version'], { cwd: elsewhere, env, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(`toolbelt ${VERSION} (${join(prefix, 'lib', 'node_modules', '@toolbelt', 'cli')})\n`);
  });

  it('serves toolbelt mcp from another directory: initialize, tools/list and a call', async () => {
    const client = new Client({ name: 'install-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: toolbelt, args: ['mcp'], cwd: elsewhere, env, stderr: 'pipe' }),
    );
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'toolbelt', version: VERSION });
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['read_file', 'grep', 'shell_exec']));
      const read = await client.callTool({ name: 'read_file', arguments: { path: 'notes.txt' } });
      expect(JSON.stringify(read.content)).toContain('hello from elsewhere');
    } finally {
      await client.close();
    }
  }, 60_000);
});
