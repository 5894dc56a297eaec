// The one schema of toolbelt.config.json, composed from each package's section: every section is
// checked by its owner's schema, and a key no schema knows is reported with its full path.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '@toolbelt/core';
import { problems } from './__fixtures__/problems.js';
import { parseConfig } from './load.js';
import { configShape } from './schema.js';

describe('the composed config schema', () => {
  it("has every package's sections and nothing else", () => {
    expect(Object.keys(configShape).sort()).toEqual(
      [
        '$schema',
        'mode',
        'rules',
        'hardDeny',
        'toolSettings',
        'limits',
        'structuredText',
        'aliases',
        'log',
        'workspace',
        'shell',
        'sandbox',
        'search',
        'web',
        'lsp',
        'mcpServers',
        'gateway',
        'tools',
        'integrations',
      ].sort(),
    );
  });

  it('accepts a full config', () => {
    const c = parseConfig(
      't.json',
      JSON.stringify({
        mode: 'auto-edit',
        rules: [{ tool: 'shell_exec', command: 'npm test', action: 'allow' }],
        mcpServers: { fs: { command: 'npx', args: ['x'] } },
        toolSettings: { read_file: { timeoutMs: 5000 } },
        shell: { maxOutputFileBytes: 0, hideEnv: ['*_TOKEN'], passEnv: ['GITHUB_TOKEN'] },
        sandbox: { mode: 'off', hidden: ['~/vault', '!~/.npmrc'] },
        gateway: { port: 0, tokens: [{ tokenEnv: 'AGENT_TOKEN', roles: ['call'] }] },
        tools: [
          { name: 'deploy', description: 'Deploys.', inputSchema: { type: 'object' }, executionType: 'external' },
        ],
      }),
    );
    expect(c.mode).toBe('auto-edit');
    expect(c.shell?.maxOutputFileBytes).toBe(0);
    expect(c.shell?.passEnv).toEqual(['GITHUB_TOKEN']);
    expect(c.rules?.[0].command).toBe('npm test');
    expect(c.gateway?.tokens?.[0].roles).toEqual(['call']);
  });

  it('reports unknown keys and wrong types with their paths, all at once', () => {
    let err: ConfigError | undefined;
    try {
      parseConfig('t.json', {
        mode: 'fast',
        rules: [{ tool: 'x', action: 'maybe' }],
        bogus: 1,
        toolSettings: { a: { timeoutMs: 'slow' } },
      });
    } catch (e) {
      err = e as ConfigError;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const text = err!.message;
    expect(text).toContain('t.json is invalid');
    expect(text).toMatch(/mode: /);
    expect(text).toMatch(/rules\[0\]\.action/);
    expect(text).toContain('bogus: unknown key');
    expect(text).toMatch(/toolSettings\.a\.timeoutMs/);
  });

  // One misspelt key per section, each owned by a different package's schema.
  const unknown: [owner: string, config: unknown, problem: string][] = [
    ['core', { rules: [{ action: 'allow', comand: 'ls' }] }, 'rules[0].comand: unknown key; did you mean "command"?'],
    ['core', { limits: { maxOutput: 10 } }, 'limits.maxOutput: unknown key; did you mean "maxOutputChars"?'],
    [
      'core',
      { toolSettings: { read_file: { timeout: 5 } } },
      'toolSettings.read_file.timeout: unknown key; did you mean "timeoutMs"?',
    ],
    ['tools', { shell: { limits: { cpuSecs: 10 } } }, 'shell.limits.cpuSecs: unknown key; did you mean "cpuSeconds"?'],
    ['tools', { sandbox: { hiden: [] } }, 'sandbox.hiden: unknown key; did you mean "hidden"?'],
    ['tools', { search: { engin: 'rg' } }, 'search.engin: unknown key; did you mean "engine"?'],
    ['tools', { web: { allowHost: [] } }, 'web.allowHost: unknown key; did you mean "allowHosts"?'],
    [
      'tools',
      { lsp: { py: { command: 'pylsp', extensions: ['.py'], extension: '.py' } } },
      'lsp.py.extension: unknown key; did you mean "extensions"?',
    ],
    ['tools', { workspace: { root: ['..'] } }, 'workspace.root: unknown key; did you mean "roots"?'],
    [
      'mcp',
      { mcpServers: { fs: { command: 'x', trsut: 'read' } } },
      'mcpServers.fs.trsut: unknown key; did you mean "trust"?',
    ],
    [
      'gateway',
      { gateway: { tokens: [{ token: 'a-token-of-16-chars', roles: ['call'], role: 'admin' }] } },
      'gateway.tokens[0].role: unknown key; did you mean "roles"?',
    ],
    [
      'gateway',
      { tools: [{ name: 'x', description: 'X.', inputschema: {}, inputSchema: {}, executionType: 'external' }] },
      'tools[0].inputschema: unknown key; did you mean "inputSchema"?',
    ],
    ['cli', { mcpServer: {} }, 'mcpServer: unknown key; did you mean "mcpServers"?'],
  ];
  it.each(unknown)('reports an unknown key of the %s section with its full path', (_owner, config, problem) => {
    expect(problems(config)).toEqual([problem]);
  });

  it("says what a value must be, in each package's words", () => {
    expect(
      problems({
        sandbox: { writable: ['build'] },
        shell: { hideEnv: 'X', passEnv: ['MY-VAR'] },
        gateway: { tokens: [{ token: 'a-token-of-16-chars', roles: ['root'] }] },
      }),
    ).toEqual([
      'shell.hideEnv: must be a list of variable names (`*` allowed), not "X"',
      'shell.passEnv[0]: must be a variable name (letters, digits, "_"; "*" for any run of them), not "MY-VAR"',
      'sandbox.writable[0]: must be an absolute path or one starting with "~/", not "build"',
      'gateway.tokens[0].roles[0]: must be one of "call", "submit", "approve", "events", "person", "admin", not "root"',
    ]);
  });

  it('accepts trust "read" for an MCP server and says what else it could be', () => {
    expect(
      parseConfig('t.json', { mcpServers: { fs: { command: 'x', trust: 'read', cwd: 'sub' } } }).mcpServers?.fs.trust,
    ).toBe('read');
    expect(() => parseConfig('t.json', { mcpServers: { fs: { command: 'x', trust: 'all' } } })).toThrow(
      'mcpServers.fs.trust: use "read" (believe this server\'s readOnlyHint) or leave "trust" out',
    );
  });

  it('says when the file is not JSON', () => {
    expect(() => parseConfig('t.json', '{ mode: ')).toThrow(/not valid JSON/);
  });
});
