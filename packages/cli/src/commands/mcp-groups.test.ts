// `toolbelt mcp --groups` as a real process over stdio, driven by the official SDK Client: the
// start list, load_tools and its list_changed, refusals. Runs the built CLI: `npm run build` first.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { FIXTURE_SERVER } from '../../../mcp/src/__fixtures__/servers.js';
import { isolatedState, writeTrustedConfig } from '../__fixtures__/trust.js';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'toolbelt.js');
const root = realpathSync(mkdtempSync(join(tmpdir(), 'toolbelt-cli-groups-')));
const state = isolatedState();
writeTrustedConfig(
  root,
  { mcpServers: { fx: { command: process.execPath, args: [FIXTURE_SERVER], trust: 'read' } } },
  state,
);

const text = (r: unknown) => (r as CallToolResult).content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
const code = (r: unknown) => ((r as CallToolResult)._meta?.['toolbelt/call'] as { code?: string } | undefined)?.code;

describe.runIf(existsSync(join(dirname(BIN), '..', 'dist', 'commands', 'mcp.js')))('toolbelt mcp --groups', () => {
  let client: Client;
  let listChanged = 0;

  beforeAll(async () => {
    client = new Client({ name: 'groups-test', version: '1' });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void listChanged++);
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp', '--root', root, '--groups', 'files,search'],
        env: { ...getDefaultEnvironment(), ...state },
        stderr: 'pipe',
      }),
    );
  });
  afterAll(async () => {
    await client?.close();
  });

  it('starts with the files and search tools plus load_tools, which lists the other groups', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toContain('read_file');
    expect(names).toContain('grep');
    expect(names).not.toContain('delete_file');
    expect(names).toContain('load_tools');
    expect(names.filter((n) => n.startsWith('git_') || n.startsWith('shell_') || n.startsWith('fx__'))).toEqual([]);
    const description = tools.find((t) => t.name === 'load_tools')!.description!;
    expect(description).toMatch(/^git: status, diff, log, branch, commit, push$/m);
    expect(description).toMatch(/^file_ops: mkdir, move, copy, append, delete$/m);
    expect(description).toMatch(/^mcp:fx: tools of MCP server "fx": .*fx__echo/m);
    expect(description).not.toMatch(/^files:/m);
  });

  it('refuses a tool whose group is not loaded, naming the group to load', async () => {
    const result = await client.callTool({ name: 'git_status', arguments: {} });
    expect(result.isError).toBe(true);
    expect(code(result)).toBe('UNKNOWN_TOOL');
    expect(text(result)).toBe(
      'git_status is in tool group "git", which is not loaded; call load_tools with {"groups":["git"]} first.',
    );
  });

  it('loads a group on request: list_changed arrives and the list has its tools', async () => {
    const before = listChanged;
    const result = await client.callTool({ name: 'load_tools', arguments: { groups: ['git', 'mcp:fx'] } });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toMatch(/^Loaded git, mcp:fx: .*git_status.*fx__echo/);
    await expect.poll(() => listChanged).toBeGreaterThan(before);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['git_status', 'git_log', 'fx__echo', 'read_file', 'load_tools']));
    expect(code(await client.callTool({ name: 'fx__echo', arguments: { text: 'hi' } }))).toBeUndefined();
  });

  it('answers an unknown group with INVALID_PARAMS naming the valid groups', async () => {
    const result = await client.callTool({ name: 'load_tools', arguments: { groups: ['nope'] } });
    expect(result.isError).toBe(true);
    expect(code(result)).toBe('INVALID_PARAMS');
    expect(text(result)).toMatch(/^unknown tool group "nope"; valid groups: .*files, git, linkedin, mcp:fx.*search/);
    expect(code(await client.callTool({ name: 'load_tools', arguments: { groups: 'git' } }))).toBe('INVALID_PARAMS');
  });

  it('exits with a usage error for an unknown group at start', () => {
    const run = spawnSync(process.execPath, [BIN, 'mcp', '--root', root, '--groups', 'files,nope'], {
      encoding: 'utf8',
      input: '',
      env: { ...process.env, ...state },
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--groups: unknown tool group "nope"; valid groups: .*files/);
  });
});
