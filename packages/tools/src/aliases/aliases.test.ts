// Every name and parameter spelling of the alias table, called for real: each resolves to its tool,
// is judged by that tool's policy exactly as the same call by the tool's own name (the approver
// sees the same request), is logged under the tool's name, and says which name it was called by.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Executor, MemoryLogSink, Policy, ToolRegistry, type ApprovalRequest, type Mode } from '@toolbelt/core';
import { builtinTools } from '../builtin.js';
import { WorkspaceGuard } from '../workspace/guard.js';
import { BUILTIN_ALIASES } from './table.js';

type Input = Record<string, unknown>;
/** Each alias name: a call by that name, and the same call by the tool's own name. */
const BY_NAME: Record<string, [Input, Input]> = {
  Read: [
    { file_path: 'a.txt', offset: 2 },
    { path: 'a.txt', offset: 2 },
  ],
  read: [{ filePath: 'a.txt' }, { path: 'a.txt' }],
  view_file: [{ path: 'a.txt' }, { path: 'a.txt' }],
  'str_replace_editor/view': [
    { command: 'view', path: 'a.txt', view_range: [2, 3] },
    { path: 'a.txt', offset: 2, limit: 2 },
  ],
  Write: [
    { file_path: 'b.txt', content: 'x' },
    { path: 'b.txt', content: 'x' },
  ],
  write: [
    { filePath: 'b.txt', content: 'x' },
    { path: 'b.txt', content: 'x' },
  ],
  create_file: [
    { path: 'b.txt', content: 'x', createDirectories: true },
    { path: 'b.txt', content: 'x' },
  ],
  'str_replace_editor/create': [
    { command: 'create', path: 'b.txt', file_text: 'x' },
    { path: 'b.txt', content: 'x' },
  ],
  Edit: [
    { file_path: 'a.txt', old_string: 'one', new_string: '1' },
    { path: 'a.txt', old_string: 'one', new_string: '1' },
  ],
  edit: [
    { filePath: 'a.txt', oldString: 'one', newString: '1', replaceAll: true },
    { path: 'a.txt', old_string: 'one', new_string: '1', replace_all: true },
  ],
  MultiEdit: [
    { file_path: 'a.txt', edits: [{ old_string: 'one', new_string: '1' }] },
    { path: 'a.txt', edits: [{ old_string: 'one', new_string: '1' }] },
  ],
  multiedit: [
    { filePath: 'a.txt', edits: [{ filePath: 'a.txt', oldString: 'one', newString: '1' }] },
    { path: 'a.txt', edits: [{ old_string: 'one', new_string: '1' }] },
  ],
  replace: [
    { file_path: 'a.txt', old_string: 'one', new_string: '1', expected_replacements: 2 },
    { path: 'a.txt', old_string: 'one', new_string: '1', replace_all: true },
  ],
  str_replace: [
    { path: 'a.txt', old_str: 'one', new_str: '1' },
    { path: 'a.txt', old_string: 'one', new_string: '1' },
  ],
  'str_replace_editor/str_replace': [
    { command: 'str_replace', path: 'a.txt', old_str: 'one', new_str: '1' },
    { path: 'a.txt', old_string: 'one', new_string: '1' },
  ],
  LS: [{ path: '.', ignore: ['*.log'] }, { path: '.' }],
  list: [{ path: '.' }, { path: '.' }],
  list_dir: [
    { dir_path: '.', depth: 2, offset: 1, limit: 10 },
    { path: '.', depth: 2 },
  ],
  list_files: [{ path: '.' }, { path: '.' }],
  ls: [{ path: '.' }, { path: '.' }],
  rename_file: [
    { source: 'a.txt', dest: 'c.txt' },
    { source: 'a.txt', destination: 'c.txt' },
  ],
  mkdir: [{ dir_path: 'd' }, { path: 'd' }],
  search_files: [
    { pattern: '*.txt', path: '.' },
    { pattern: '*.txt', path: '.' },
  ],
  find_files: [
    { pattern: '*.txt', respect_git_ignore: false },
    { pattern: '*.txt', include_ignored: true },
  ],
  search_file_content: [
    { pattern: 'one', dir_path: '.', include: '*.txt' },
    { pattern: 'one', path: '.', glob: '*.txt' },
  ],
  search_code: [
    { pattern: 'one', caseInsensitive: true, maxResults: 5 },
    { pattern: 'one', case_insensitive: true, max_results: 5 },
  ],
  grep_files: [
    { pattern: 'one', include: '*.txt', limit: 5 },
    { pattern: 'one', glob: '*.txt', max_results: 5, output_mode: 'files_with_matches' },
  ],
  shell: [
    { command: 'rm -rf x', timeout: 5000 },
    { command: 'rm -rf x', timeout_ms: 5000 },
  ],
  bash: [{ command: 'rm -rf x' }, { command: 'rm -rf x' }],
  'Bash/background': [{ command: 'sleep 1', run_in_background: true, description: 'wait' }, { command: 'sleep 1' }],
  run_shell_command: [
    { command: 'ls', description: 'list', directory: 'd' },
    { command: 'ls', cwd: 'd' },
  ],
  execute_bash: [
    { command: 'ls', is_input: false, security_risk: 'LOW', timeout: 5 },
    { command: 'ls', timeout_ms: 5000 },
  ],
  shell_command: [
    { command: ['bash', '-lc', 'git status'], workdir: 'd', timeout_ms: 1000 },
    { command: 'git status', cwd: 'd', timeout_ms: 1000 },
  ],
  exec_command: [{ cmd: 'ls -la' }, { command: 'ls -la' }],
  run_terminal_cmd: [{ command: 'ls' }, { command: 'ls' }],
  execute_command: [{ command: ['rm', '-rf', 'my dir'] }, { command: "rm -rf 'my dir'" }],
  hover: [
    { path: 'a.ts', line: 1, col: 7 },
    { what: 'hover', path: 'a.ts', line: 1, column: 7 },
  ],
  definition: [
    { file_path: 'a.ts', line: 1, character: 7 },
    { what: 'definition', path: 'a.ts', line: 1, column: 7 },
  ],
  goto_definition: [
    { path: 'a.ts', line: 1, symbol: 'x' },
    { what: 'definition', path: 'a.ts', line: 1, symbol: 'x' },
  ],
  references: [
    { path: 'a.ts', line: 1, col: 7 },
    { what: 'references', path: 'a.ts', line: 1, column: 7 },
  ],
  find_references: [
    { path: 'a.ts', line: 1, col: 7 },
    { what: 'references', path: 'a.ts', line: 1, column: 7 },
  ],
  WebFetch: [{ url: 'https://example.com/', prompt: 'summarize' }, { url: 'https://example.com/' }],
  webfetch: [{ url: 'https://example.com/', format: 'markdown', timeout: 10 }, { url: 'https://example.com/' }],
  fetch: [
    { url: 'https://example.com/', max_length: 5000 },
    { url: 'https://example.com/', maxChars: 5000 },
  ],
  fetch_url: [{ url: 'https://example.com/' }, { url: 'https://example.com/' }],
  web_read: [{ url: 'https://example.com/' }, { url: 'https://example.com/' }],
  WebSearch: [
    { query: 'toolbelt', max_results: 3 },
    { query: 'toolbelt', count: 3 },
  ],
  google_web_search: [{ query: 'toolbelt' }, { query: 'toolbelt' }],
  websearch: [
    { q: 'toolbelt', num_results: 3 },
    { query: 'toolbelt', count: 3 },
  ],
  search_web: [
    { query: 'toolbelt', limit: 3 },
    { query: 'toolbelt', count: 3 },
  ],
};
/** Calls by a tool's own name in another tool set's spelling. */
const BY_SPELLING: [string, Input, Input][] = [
  ['edit_file', { path: 'a.txt', old: 'one', new: '1' }, { path: 'a.txt', old_string: 'one', new_string: '1' }],
  ['copy_file', { source: 'a.txt', dest: 'c.txt' }, { source: 'a.txt', destination: 'c.txt' }],
  ['git_branch', { name: 'feature', create: true }, { action: 'create', name: 'feature' }],
  [
    'grep',
    { pattern: 'one', '-i': true, '-C': 1, '-n': true, head_limit: 3 },
    { pattern: 'one', case_insensitive: true, context: 1, max_results: 3 },
  ],
  [
    'grep',
    { pattern: 'one', '-A': 2, '-B': 1, include: '*.txt' },
    { pattern: 'one', after: 2, before: 1, glob: '*.txt' },
  ],
  ['read_file', { absolute_path: 'a.txt' }, { path: 'a.txt' }],
  ['write_file', { file_path: 'b.txt', content: 'x', createDirectories: true }, { path: 'b.txt', content: 'x' }],
  ['web_fetch', { prompt: 'Summarize https://example.com/page please' }, { url: 'https://example.com/page' }],
  ['shell_exec', { command: 'ls', timeout: 5000 }, { command: 'ls', timeout_ms: 5000 }],
  ['glob', { pattern: '*.txt', maxResults: 3 }, { pattern: '*.txt', limit: 3 }],
];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'aliases-'));
  writeFileSync(join(dir, 'a.txt'), 'one\ntwo\nthree\n');
  writeFileSync(join(dir, 'a.ts'), 'const x = 1;\n');
  mkdirSync(join(dir, 'd'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An executor that asks about every call (mode ask), records what it was asked, and says no: nothing runs. */
function asking(mode: Mode = 'ask', aliases = true) {
  const registry = new ToolRegistry().registerAll(builtinTools({ env: { BRAVE_API_KEY: 'test-key' } }));
  const asked: ApprovalRequest[] = [];
  const log = new MemoryLogSink();
  const executor = new Executor({
    registry,
    policy: new Policy({ mode }),
    workspace: new WorkspaceGuard({ roots: [dir] }),
    log,
    aliases,
    approver: async (request) => (asked.push(request), { outcome: 'reject', reason: 'test' }),
  });
  return { executor, asked, log };
}

/** The approval request with what differs between any two calls (their ids) left out. */
const comparable = ({ callId: _c, sessionId: _s, ...rest }: ApprovalRequest) => rest;

async function sameAsOwnName(name: string, input: Input, own: string, ownInput: Input) {
  const { executor, asked, log } = asking();
  const viaAlias = await executor.call({ tool: name, input });
  const direct = await executor.call({ tool: own, input: ownInput });
  expect(direct.status, `${own} ${JSON.stringify(direct.error)}`).toBe('rejected');
  expect(viaAlias.status, `${name} ${JSON.stringify(viaAlias.error)}`).toBe('rejected');
  expect(viaAlias.tool).toBe(own);
  expect(asked).toHaveLength(2);
  expect(comparable(asked[0])).toEqual(comparable(asked[1]));
  await executor.logs.flush();
  expect(log.entries.map((e) => e.tool)).toEqual([own, own]);
  return viaAlias;
}

describe('other tool sets’ names for the built-ins', () => {
  const table = Object.entries(BUILTIN_ALIASES).flatMap(([tool, a]) =>
    (a.names ?? []).map((n) => ({ tool, name: typeof n === 'string' ? n : n.name })),
  );

  it('has a case below for every name in the table', () => {
    const cased = new Set(Object.keys(BY_NAME).map((k) => k.split('/')[0].toLowerCase()));
    expect(table.map((t) => t.name).filter((n) => !cased.has(n.toLowerCase()))).toEqual([]);
  });

  for (const [key, [input, ownInput]] of Object.entries(BY_NAME)) {
    const name = key.split('/')[0];
    const claims = table.filter((t) => t.name.toLowerCase() === name.toLowerCase()).map((t) => t.tool);
    const own =
      claims.length === 1
        ? claims[0]
        : key.includes('/background')
          ? 'shell_background'
          : key.startsWith('str_replace_editor')
            ? { view: 'read_file', create: 'write_file', str_replace: 'edit_file' }[key.split('/')[1]]!
            : claims.find((c) => c !== 'shell_background')!;
    it(`${key} runs as ${own}, judged and logged as ${own}`, async () => {
      const result = await sameAsOwnName(name, input, own, ownInput);
      expect(result.metadata?.calledAs).toBe(name);
    });
  }

  for (const [tool, input, ownInput] of BY_SPELLING) {
    it(`${tool} ${Object.keys(input).join(', ')} reads as ${Object.keys(ownInput).join(', ')}`, async () => {
      const result = await sameAsOwnName(tool, input, tool, ownInput);
      expect(result.metadata?.calledAs).toBeUndefined();
    });
  }

  it('asks about an aliased `bash "rm -rf x"` exactly as about shell_exec, and a hard deny holds for it too', async () => {
    const { executor, asked } = asking('safe');
    await executor.call({ tool: 'bash', input: { command: 'rm -rf x' } });
    await executor.call({ tool: 'shell_exec', input: { command: 'rm -rf x' } });
    expect(asked.map((a) => [a.tool, a.effect])).toEqual([
      ['shell_exec', 'destructive'],
      ['shell_exec', 'destructive'],
    ]);
    expect(comparable(asked[0])).toEqual(comparable(asked[1]));
    const denied = await executor.call({ tool: 'Bash', input: { command: 'rm -rf /' } });
    expect([denied.tool, denied.error?.code]).toEqual(['shell_exec', 'PERMISSION_DENIED']);
  });

  it('refuses a name that fits no tool for this input, with the choices', async () => {
    const { executor } = asking();
    const r = await executor.call({
      tool: 'str_replace_editor',
      input: { command: 'insert', path: 'a.txt', insert_line: 1, new_str: 'x' },
    });
    expect(r.error?.code).toBe('UNKNOWN_TOOL');
    expect(r.error?.message).toMatch(/"str_replace_editor".* one of read_file, write_file, edit_file/);
  });

  it('refuses every alias and spelling when aliases are off (control)', async () => {
    const { executor, asked } = asking('ask', false);
    expect((await executor.call({ tool: 'bash', input: { command: 'ls' } })).error?.code).toBe('UNKNOWN_TOOL');
    expect((await executor.call({ tool: 'Glob', input: { pattern: '*' } })).error?.code).toBe('UNKNOWN_TOOL');
    expect(
      (await executor.call({ tool: 'edit_file', input: { path: 'a.txt', old: 'one', new: '1' } })).error?.code,
    ).toBe('INVALID_PARAMS');
    expect(asked).toEqual([]);
  });

  it('adds nothing to what a model is shown', () => {
    for (const tool of builtinTools({ env: { BRAVE_API_KEY: 'k' } }))
      expect(JSON.stringify(tool.jsonSchema)).not.toMatch(/old_str"|file_path|"Bash"/);
  });
});
