// An executor made without a workspace gives its tools Workspace.none(): every tool that takes a
// path or runs a command refuses the same way, and nothing falls back to the process's directory.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Executor, Policy, ToolRegistry, Workspace } from '@toolbelt/core';
import { builtinTools } from './builtin.js';

const base = mkdtempSync(join(tmpdir(), 'tb-nows-'));
const marker = join(base, 'ran');
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** One valid call of every built-in tool that uses the workspace. */
const CALLS: Record<string, Record<string, unknown>> = {
  read_file: { path: 'a.txt' },
  write_file: { path: 'a.txt', content: 'x' },
  edit_file: { path: 'a.txt', old_string: 'a', new_string: 'b' },
  append_file: { path: 'a.txt', content: 'x' },
  delete_file: { path: 'a.txt' },
  list_directory: {},
  create_directory: { path: 'd' },
  copy_file: { source: 'a.txt', destination: 'b.txt' },
  move_file: { source: 'a.txt', destination: 'b.txt' },
  glob: { pattern: '*' },
  grep: { pattern: 'x' },
  shell_exec: { command: `touch ${marker}` },
  shell_background: { command: `touch ${marker}` },
  git_status: {},
  git_diff: {},
  git_log: {},
  git_branch: {},
  git_commit: { message: 'm' },
  git_push: {},
  diagnostics: { path: 'a.ts' },
  symbols: { path: 'a.ts' },
  code_lookup: { what: 'hover', path: 'a.ts', line: 1, column: 1 },
};
/** Tools that touch no path: web access and the shell's job table. */
const PATHLESS = ['web_fetch', 'web_search', 'shell_job'];

describe('an executor without a workspace', () => {
  const tools = builtinTools({ env: { BRAVE_API_KEY: 'unused' } });
  const registry = new ToolRegistry();
  registry.registerAll(tools);
  const executor = new Executor({ registry, policy: new Policy({ mode: 'yolo' }) });
  afterAll(() => executor.close());

  it('has a call for every built-in tool that uses the workspace', () => {
    expect(
      tools
        .map((t) => t.name)
        .filter((n) => !PATHLESS.includes(n))
        .sort(),
    ).toEqual(Object.keys(CALLS).sort());
  });

  it('refuses every such call with one code and one message', async () => {
    const none = await Workspace.none()
      .resolve('.', 'read')
      .catch((err: Error) => err);
    const errors = new Map<string, unknown>();
    for (const [tool, input] of Object.entries(CALLS)) {
      const r = await executor.call({ tool, input });
      errors.set(tool, r.status === 'error' ? { code: r.error.code, message: r.error.message } : r.status);
    }
    const expected = new Map(
      [...errors.keys()].map((tool) => [tool, { code: 'PERMISSION_DENIED', message: (none as Error).message }]),
    );
    expect(errors).toEqual(expected);
    expect((none as Error).message).toContain('needs a workspace');
  });

  it('runs no shell command in the process directory, with or without cwd', async () => {
    for (const cwd of [undefined, '.', process.cwd()]) {
      const r = await executor.call({
        tool: 'shell_exec',
        input: { command: `touch ${marker}`, ...(cwd ? { cwd } : {}) },
      });
      expect(r.error?.code).toBe('PERMISSION_DENIED');
    }
    expect(existsSync(marker)).toBe(false);
  });
});
