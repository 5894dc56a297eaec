// Configs written for other designs: their names are read as ours in one step, reported where
// their author wrote them, and then run through the same code as ours.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURE_SERVER } from '../../../mcp/src/__fixtures__/servers.js';
import { defaultProviders } from '../providers.js';
import { isolatedState, trustConfig } from '../__fixtures__/trust.js';
import { createRuntime, resolveMode } from '../runtime.js';
import { problems } from './__fixtures__/problems.js';
import { parseConfig } from './load.js';

describe('confirmation modes from other designs', () => {
  it('reads "none" as ask and "all" as yolo; "safe" is the same word', () => {
    expect(parseConfig('t.json', { mode: 'none' }).mode).toBe('ask');
    expect(parseConfig('t.json', { mode: 'all' }).mode).toBe('yolo');
    expect(parseConfig('t.json', { mode: 'safe' }).mode).toBe('safe');
  });

  it('takes them on --mode too, and names both vocabularies when a mode is neither', () => {
    expect(resolveMode('all', {})).toBe('yolo');
    expect(resolveMode('none', { mode: 'yolo' })).toBe('ask');
    expect(resolveMode(undefined, { mode: 'auto-edit' })).toBe('auto-edit');
    expect(() => resolveMode('everything', {})).toThrow(
      'unknown mode "everything"; use one of ask, safe, auto-edit, yolo (or none, all: see docs/configuration.md)',
    );
    expect(problems({ mode: 'everything' })).toEqual([
      'mode: must be one of "ask", "safe", "auto-edit", "yolo", "none", "all", not "everything"',
    ]);
  });
});

describe('mcp.servers beside mcpServers', () => {
  it('becomes mcpServers by name, each field as it was', () => {
    const c = parseConfig('t.json', {
      mcp: {
        servers: [
          { name: 'github-tools', url: 'https://mcp.example.com', transport: 'http', allowedTools: ['list_prs'] },
          { name: 'local', command: 'node', args: ['s.js'] },
        ],
      },
      mcpServers: { fs: { command: 'npx' } },
    });
    expect(c).toEqual({
      mcpServers: {
        fs: { command: 'npx' },
        'github-tools': { url: 'https://mcp.example.com', transport: 'http', allowedTools: ['list_prs'] },
        local: { command: 'node', args: ['s.js'] },
      },
    });
    expect('mcp' in c).toBe(false);
  });

  it('reports a problem where it was written, and a name given twice', () => {
    expect(problems({ mcp: { servers: [{ name: 'a', command: 'x', trsut: 'read' }, { command: 'y' }] } })).toEqual([
      'mcp.servers[0].trsut: unknown key; did you mean "trust"?',
      "mcp.servers[1].name: required: give the server's name",
    ]);
    expect(
      problems({
        mcp: {
          servers: [
            { name: 'fs', command: 'x' },
            { name: 'fs', command: 'y' },
          ],
        },
      }),
    ).toEqual(['mcp.servers[1].name: "fs" is also mcp.servers[0]; give each server its own name, or keep one of them']);
    expect(
      problems({ mcpServers: { fs: { command: 'x' } }, mcp: { servers: [{ name: 'fs', command: 'y' }] } }),
    ).toEqual(['mcp.servers[0].name: "fs" is also mcpServers.fs; give each server its own name, or keep one of them']);
    expect(problems({ mcp: { server: [] } })).toEqual([
      'mcp.servers: required: give a list of servers, each with a name',
      'mcp.server: unknown key; did you mean "servers"?',
    ]);
  });
});

describe('a config written for another design, run', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tb-aliases-')));
  const env = isolatedState();
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(env.XDG_STATE_HOME, { recursive: true, force: true });
  });

  async function cwdCall(mode: string) {
    const file = join(root, `${mode}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        mode,
        mcp: {
          servers: [
            {
              name: 'fx',
              command: process.execPath,
              args: [FIXTURE_SERVER],
              transport: 'stdio',
              allowedTools: ['cwd', 'echo'],
            },
          ],
        },
      }),
    );
    trustConfig(file, env, [root]);
    const rt = await createRuntime(
      { root: [root], config: file },
      { env, providers: defaultProviders({ mcp: { warn: () => {} } }) },
    );
    try {
      const names = rt.registry
        .list()
        .map((t) => t.name)
        .filter((n) => n.startsWith('fx__'));
      return { names, result: await rt.executor.call({ tool: 'fx__cwd', input: {}, sessionId: 'test' }) };
    } finally {
      await rt.close();
    }
  }

  it('mode "all" with mcp.servers proxies the server, keeps only its allowed tools, and runs them unasked', async () => {
    const all = await cwdCall('all');
    expect(all.names.sort()).toEqual(['fx__cwd', 'fx__echo']);
    expect(all.result).toMatchObject({ status: 'success', approvedBy: 'auto' });
    // The same server under "none" (ask) is asked first, and nobody here can approve.
    expect((await cwdCall('none')).result.status).toBe('rejected');
  });
});
