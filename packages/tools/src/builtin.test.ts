// Listings and MCP hints show a tool's usual effect before any input is known: every built-in
// whose effect is judged per call must declare one. Each family declares its tool groups, with the
// one-line summaries load_tools shows, beside its tools.
import { describe, expect, it } from 'vitest';
import { EFFECTS, listGroups, ToolRegistry, usualEffectOf } from '@toolbelt/core';
import { builtinTools } from './builtin.js';

describe('built-in tools', () => {
  const tools = builtinTools({ env: { BRAVE_API_KEY: 'listing-only' } });
  const perCall = tools.filter((t) => typeof t.effect !== 'string');

  it('declare a usual effect for every per-call effect', () => {
    expect(perCall.length).toBeGreaterThan(20);
    for (const tool of perCall) expect(EFFECTS, `${tool.name}: set usualEffect`).toContain(tool.usualEffect);
  });

  it('give each tool the usual effect a person would expect of it', () => {
    const usual = Object.fromEntries(tools.map((t) => [t.name, usualEffectOf(t)]));
    expect(usual).toMatchObject({
      read_file: 'read',
      list_directory: 'read',
      glob: 'read',
      grep: 'read',
      web_fetch: 'read',
      write_file: 'write',
      edit_file: 'write',
      move_file: 'write',
      delete_file: 'destructive',
      shell_exec: 'execute',
      shell_background: 'execute',
      git_branch: 'write',
      git_commit: 'write',
      git_push: 'destructive',
    });
    expect(tools.find((t) => t.name === 'move_file')!.annotations?.destructive).toBe(true);
  });

  it('fall into groups their families declare, each with its own summary', () => {
    const groups = listGroups(new ToolRegistry().registerAll(tools));
    expect(Object.fromEntries(groups.map((g) => [g.name, g.summary]))).toEqual({
      code: 'diagnostics, symbols, definitions, references, hover',
      file_ops: 'mkdir, move, copy, append, delete',
      files: 'read, write, edit and list files',
      git: 'status, diff, log, branch, commit, push',
      search: 'find files by name and text by regex',
      shell: 'run commands (background too)',
      web: 'fetch pages, web search',
    });
    expect(groups.find((g) => g.name === 'files')?.tools).toEqual([
      'read_file',
      'write_file',
      'edit_file',
      'list_directory',
    ]);
  });
});
