// `toolbelt init` writes the config's JSON Schema beside it and names it as "$schema", so an editor
// completes and checks the file; the schema says what the Zod schema says.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { Ajv } from 'ajv';
import ajvFormats from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { useIsolatedState } from '../__fixtures__/trust.js';
import { main } from '../main.js';
import { parseConfig } from './load.js';

const root = mkdtempSync(join(tmpdir(), 'tb-json-schema-'));
// `toolbelt init` trusts the config it writes, in a state directory of this file's own.
const state = useIsolatedState();
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
});

async function toolbelt(args: string[]): Promise<{ code: number; out: string }> {
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (d) => (out += d));
  const code = await main(args, { stdout, stderr: stdout, stdin: new PassThrough(), interactive: false });
  return { code, out };
}

// How an editor checks the file: draft-07, with the formats (uri) it knows. ajv-formats is
// CommonJS: its plugin is the module's `default`.
const ajv = () => ajvFormats.default(new Ajv({ strict: false }));

const SAMPLES: unknown[] = [
  {
    mode: 'all',
    mcp: { servers: [{ name: 'gh', url: 'https://mcp.example.com', transport: 'http', allowedTools: ['list_prs'] }] },
  },
  {
    mode: 'auto-edit',
    shell: { allow: ['npm test'], limits: { cpuSeconds: 60 } },
    sandbox: { mode: 'required', network: ['npm install'] },
    lsp: { py: { command: 'pylsp', extensions: ['.py'] } },
  },
  {
    gateway: { port: 7077, tokens: [{ tokenEnv: 'AGENT_TOKEN', roles: ['call', 'events'], agents: ['planner'] }] },
    tools: [{ name: 'deploy', description: 'Deploys.', inputSchema: { type: 'object' }, executionType: 'external' }],
  },
  { shell: { limits: { cpuSecs: 60 } } },
  { mcpServers: { fs: { command: 'x', trsut: 'read' } } },
  { gateway: { tokens: [{ token: 'a-token-of-16-chars', roles: ['root'] }] } },
  { mode: 'fast' },
  { mcp: { servers: [{ url: 'https://mcp.example.com' }] } },
  { mcpServers: { remote: { url: 'not a url' } } },
];

describe('the JSON Schema that toolbelt init writes', () => {
  it('is named by the config it writes, at a path an editor resolves from the config file', async () => {
    expect((await toolbelt(['init', '--root', root])).code).toBe(0);
    const config = JSON.parse(readFileSync(join(root, 'toolbelt.config.json'), 'utf8'));
    expect(config.$schema).toBe('./toolbelt.config.schema.json');
    const schemaPath = resolve(dirname(join(root, 'toolbelt.config.json')), config.$schema);
    expect(existsSync(schemaPath)).toBe(true);
    const schema = JSON.parse(readFileSync(schemaPath, 'utf8'));
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(ajv().validate(schema, config)).toBe(true);
    expect(() => parseConfig('starter', config)).not.toThrow();
  });

  it('accepts and refuses what the config loader does, our names and the aliases alike', () => {
    const schema = JSON.parse(readFileSync(join(root, 'toolbelt.config.schema.json'), 'utf8'));
    const validate = ajv().compile(schema);
    for (const sample of SAMPLES) {
      let loads = true;
      try {
        parseConfig('sample', sample);
      } catch {
        loads = false;
      }
      expect(validate(sample), JSON.stringify(sample)).toBe(loads);
    }
    validate({ shell: { limits: { cpuSecs: 60 } } });
    expect(validate.errors?.[0]).toMatchObject({
      instancePath: '/shell/limits',
      keyword: 'additionalProperties',
      params: { additionalProperty: 'cpuSecs' },
    });
  });

  it('describes the sections for an editor to show', () => {
    const schema = JSON.parse(readFileSync(join(root, 'toolbelt.config.schema.json'), 'utf8'));
    expect(schema.properties.sandbox.description).toMatch(/bubblewrap/);
    expect(schema.properties.mode.enum).toEqual(['ask', 'safe', 'auto-edit', 'yolo', 'none', 'all']);
  });

  it('--schema rewrites only the schema, next to a config it leaves alone', async () => {
    writeFileSync(join(root, 'toolbelt.config.json'), '{ "mode": "yolo" }\n');
    rmSync(join(root, 'toolbelt.config.schema.json'));
    expect((await toolbelt(['init', '--root', root])).code).toBe(2);
    const r = await toolbelt(['init', '--root', root, '--schema']);
    expect(r.code).toBe(0);
    expect(existsSync(join(root, 'toolbelt.config.schema.json'))).toBe(true);
    expect(readFileSync(join(root, 'toolbelt.config.json'), 'utf8')).toBe('{ "mode": "yolo" }\n');
  });
});
