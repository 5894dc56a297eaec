// The documentation's first MCP-proxy example — `npx -y @modelcontextprotocol/server-filesystem .`
// as an mcpServers entry — works as written in the sandbox: the package is fetched first (network,
// toolbelt's own npm cache, no package code run), and the server starts offline. A sandboxed server
// that never answers fails with the sandbox named as the likely cause and the keys to change.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeSandbox } from '@toolbelt/tools';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedState, writeTrustedConfig } from './__fixtures__/trust.js';
import { fetchArgs, packageRun } from './package-runner.js';

const REPO = join(import.meta.dirname, '..', '..', '..');
const CLI = join(REPO, 'packages', 'cli', 'bin', 'toolbelt.js');
const sandbox = await probeSandbox('bwrap');
const registry = (() => {
  try {
    execFileSync('npm', ['ping', '--fetch-timeout=8000', '--fetch-retries=0'], { stdio: 'pipe', timeout: 15_000 });
    return { ok: true, why: '' };
  } catch (err) {
    return { ok: false, why: `the npm registry is not reachable here (${(err as Error).message.split('\n')[0]})` };
  }
})();
if (!registry.ok) console.warn(`npx example skipped: ${registry.why}`);

const dirs: string[] = [];
const temp = (prefix: string) => {
  const d = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The mcpServers entry of docs/configuration.md's first example, as the docs print it. */
function documentedServer(): Record<string, unknown> {
  const doc = readFileSync(join(REPO, 'docs', 'configuration.md'), 'utf8');
  const block = /```json\n([\s\S]*?)\n```/.exec(doc)![1];
  return (JSON.parse(block) as { mcpServers: Record<string, unknown> }).mcpServers;
}

function toolbelt(root: string, env: Record<string, string>, ...args: string[]): { out: string; code: number } {
  try {
    return {
      out: execFileSync(process.execPath, [CLI, ...args], {
        cwd: root,
        env: { ...process.env, ...env },
        encoding: 'utf8',
        timeout: 240_000,
      }),
      code: 0,
    };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; status?: number };
    return { out: `${e.stdout ?? ''}${e.stderr ?? ''}`, code: e.status ?? -1 };
  }
}

describe('package runners', () => {
  it.each([
    [['-y', '@modelcontextprotocol/server-filesystem', '.'], '@modelcontextprotocol/server-filesystem'],
    [['--yes', '--registry', 'http://r', 'pkg@1.2.3', '--flag'], 'pkg@1.2.3'],
    [['-p', 'a', 'b'], 'a'],
    [['--package=x@2', '--', 'bin'], 'x@2'],
    [['-y', '--', 'srv', '-y'], 'srv'],
  ])('npx %j runs %s', (args, spec) => {
    expect(packageRun('npx', args)?.spec).toBe(spec);
    expect(packageRun('/usr/bin/npx', args)?.spec).toBe(spec);
  });

  it('npm exec and npm x are package runners; other commands and bare flags are not', () => {
    expect(packageRun('npm', ['exec', '-y', 'srv'])?.spec).toBe('srv');
    expect(packageRun('npm', ['x', 'srv'])?.spec).toBe('srv');
    expect(packageRun('npm', ['run', 'srv'])).toBeUndefined();
    expect(packageRun('node', ['srv.js'])).toBeUndefined();
    expect(packageRun('npx', ['-y'])).toBeUndefined();
  });

  it('fetching runs no package code', () => {
    expect(fetchArgs('srv@1')).toEqual(['exec', '--yes', '--ignore-scripts', '--package=srv@1', '--', '/bin/true']);
  });
});

describe.skipIf(!sandbox.ok)('the documented npx server in the sandbox', () => {
  it.skipIf(!registry.ok)(
    'connects as written, and its read tool answers',
    () => {
      const root = temp('tb-npx-');
      writeFileSync(join(root, 'a.txt'), 'hello from the workspace\n');
      const env = { ...isolatedState(), XDG_CACHE_HOME: temp('tb-npx-cache-') };
      writeTrustedConfig(root, { mcpServers: documentedServer() }, env);
      const status = toolbelt(root, env, 'mcp', '--status');
      expect(status.out, status.out).toMatch(/fs\s+connected over stdio, \d+ tools/);
      const read = toolbelt(root, env, 'call', 'fs__read_text_file', '{"path":"a.txt"}', '--yes');
      expect(read.out).toContain('hello from the workspace');
    },
    300_000,
  );

  it('a server that never answers names the sandbox and the keys to change', () => {
    const root = temp('tb-npx-silent-');
    const env = isolatedState();
    const silent = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], connectTimeoutMs: 800 };
    writeTrustedConfig(root, { mcpServers: { quiet: silent } }, env);
    const status = toolbelt(root, env, 'mcp', '--status');
    expect(status.code).toBe(1);
    expect(status.out).toContain('no answer within 800 ms');
    expect(status.out).toContain("it runs in toolbelt's sandbox with no network (set mcpServers.quiet.network to true");
  }, 120_000);

  it('control: with the sandbox off, the same failure says nothing of a sandbox', () => {
    const root = temp('tb-npx-off-');
    const env = isolatedState();
    const silent = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], connectTimeoutMs: 800 };
    writeTrustedConfig(root, { sandbox: { mode: 'off' }, mcpServers: { quiet: silent } }, env);
    const status = toolbelt(root, env, 'mcp', '--status');
    expect(status.out).toContain('no answer within 800 ms');
    expect(status.out).not.toContain('sandbox');
  }, 120_000);
});
