// What a model sees of the built-in tools over MCP: the server's instructions and each tool's
// name, description and input schema. Shortened for tokens, it must still carry every limit,
// default and "use X instead" hint the longer texts held, each once.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { ToolServer } from '@toolbelt/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { createRuntime, type Runtime } from './runtime.js';
import { GUIDANCE } from './definitions.guidance.js';

const FILE_TOOLS = [
  'read_file',
  'write_file',
  'edit_file',
  'list_directory',
  'create_directory',
  'move_file',
  'glob',
  'grep',
];
const root = realpathSync(mkdtempSync(join(tmpdir(), 'tb-defs-')));
const state = mkdtempSync(join(tmpdir(), 'tb-defs-state-'));
let rt: Runtime;
let toolServer: ToolServer;
let mcp: Client;
let tools: Tool[];
let instructions: string;

beforeAll(async () => {
  rt = await createRuntime({ root: [root], mode: 'safe' }, { env: { XDG_STATE_HOME: state }, warn: () => {} });
  toolServer = new ToolServer({ executor: rt.executor });
  mcp = new Client({ name: 'definitions-test', version: '1' });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await toolServer.connect(serverSide);
  await mcp.connect(clientSide);
  tools = (await mcp.listTools()).tools;
  instructions = mcp.getInstructions() ?? '';
});

afterAll(async () => {
  await mcp?.close();
  await toolServer?.close();
  await rt?.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
});

const definitionTokens = (t: Tool) =>
  encode(JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema })).length;
const sum = (list: Tool[]) => list.reduce((n, t) => n + definitionTokens(t), 0);

describe('built-in tool definitions', () => {
  it('document every parameter, in words the schema does not already say', () => {
    expect(tools.length).toBe(24);
    for (const t of tools) {
      expect(t.description, t.name).toBeTruthy();
      for (const [name, prop] of Object.entries(t.inputSchema.properties ?? {})) {
        const doc = (prop as { description?: string }).description;
        const named = new RegExp(`\\b${name}\\b`).test(t.description ?? '');
        expect(doc || named || SELF_EVIDENT.has(name), `${t.name}.${name} is documented nowhere`).toBeTruthy();
        if ('default' in (prop as object))
          expect(doc ?? '', `${t.name}.${name} restates its schema default`).not.toMatch(/\bdefault\b/i);
        expect(doc ?? '', `${t.name}.${name}`).not.toMatch(/relative to the workspace root/);
      }
    }
  });

  it('publish no safe-integer bounds', () => {
    expect(JSON.stringify(tools)).not.toContain('9007199254740991');
  });

  it('say once, in the server instructions, what holds for every path, boolean and position', () => {
    expect(instructions).toMatch(/absolute or relative to the workspace root/);
    expect(instructions).toMatch(/omitted boolean parameter is false/);
    expect(instructions).toMatch(/1-based/);
  });

  it.each(GUIDANCE)('still tell the model: %s — %s', (tool, fact, where) => {
    const t = tools.find((x) => x.name === tool);
    expect(t, tool).toBeDefined();
    const seen = `${t!.description}\n${JSON.stringify(t!.inputSchema)}\n${instructions}`;
    expect(seen).toMatch(where);
  });

  it('stay within their token budget (o200k), all of them and the 8 file and search tools', () => {
    const all = sum(tools);
    const files = sum(tools.filter((t) => FILE_TOOLS.includes(t.name)));
    // Measured 6,030 (28 tools) and 2,179 before the rewrite; the ceilings are the goals it met.
    expect(all).toBeLessThanOrEqual(BUDGET.all);
    expect(files).toBeLessThanOrEqual(BUDGET.files);
  });
});

const BUDGET = { all: 3000, files: 900 };

/**
 * Parameters that need no words of their own: a path (the server instructions say how paths work),
 * what a write or move takes, a search's pattern, and switches whose name is the whole story. Any
 * other parameter has a description or is named in its tool's description.
 */
const SELF_EVIDENT = new Set([
  'path',
  'content',
  'source',
  'destination',
  'old_string',
  'new_string',
  'pattern',
  'case_insensitive',
  'output_mode',
  // grep's own switches, named as grep and rg name them (-F, -C, -B, -A).
  'literal',
  'context',
  'before',
  'after',
]);
