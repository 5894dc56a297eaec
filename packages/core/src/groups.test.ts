// Tool groups for hierarchical loading, on a real registry: which group a tool falls in, a view
// that shows loaded groups only, loading more, and the error for a name that is no group.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from './define.js';
import { groupOf, UnknownGroupError } from './groups.js';
import { ToolRegistry, type RegistryChange } from './registry.js';

const tool = (name: string, more: { category?: string; group?: string } = {}) =>
  defineTool({ name, description: `${name}.`, input: z.object({}), effect: 'read', execute: () => name, ...more });

function registry() {
  return new ToolRegistry().registerAll([
    tool('read_file', { category: 'fs' }),
    tool('grep', { category: 'search' }),
    tool('git_status', { category: 'git' }),
    tool('git_log', { category: 'git' }),
    tool('code_lookup', { category: 'lsp' }),
    tool('fx__echo', { category: 'mcp', group: 'mcp:fx' }),
    tool('loose'),
  ]);
}

describe('tool groups', () => {
  it('maps categories to group names, and an own group wins', () => {
    const r = registry();
    expect(['read_file', 'code_lookup', 'git_log', 'fx__echo', 'loose'].map((n) => groupOf(r.get(n)!))).toEqual([
      'files',
      'code',
      'git',
      'mcp:fx',
      'other',
    ]);
  });

  it('lists every group with a one-line summary and its tools', () => {
    const groups = registry().groups();
    expect(groups.map((g) => g.name)).toEqual(['code', 'files', 'git', 'mcp:fx', 'other', 'search']);
    expect(groups.find((g) => g.name === 'git')).toMatchObject({
      tools: ['git_status', 'git_log'],
      summary: expect.stringContaining('commit'),
    });
    expect(groups.find((g) => g.name === 'mcp:fx')!.summary).toBe('tools of MCP server "fx": fx__echo');
  });

  it('shows only the loaded groups, and more after load, telling listeners', () => {
    const view = registry().grouped(['files', 'search']);
    expect(view.list().map((t) => t.name)).toEqual(['read_file', 'grep']);
    expect(view.has('git_status')).toBe(false);
    expect(view.unloaded().map((g) => g.name)).toEqual(['code', 'git', 'mcp:fx', 'other']);
    const changes: RegistryChange[] = [];
    view.onChange((c) => changes.push(c));
    expect(view.load(['git'])).toEqual(['git_status', 'git_log']);
    expect(changes).toEqual([
      { type: 'added', name: 'git_status' },
      { type: 'added', name: 'git_log' },
    ]);
    expect(view.get('git_log')?.name).toBe('git_log');
    expect(view.load(['git'])).toEqual([]);
  });

  it('shows a tool registered later once its group is loaded, and passes on only loaded changes', () => {
    const r = registry();
    const view = r.grouped(['files']);
    const changes: string[] = [];
    view.onChange((c) => changes.push(c.name));
    r.register(tool('write_file', { category: 'fs' }));
    r.register(tool('git_diff', { category: 'git' }));
    expect(changes).toEqual(['write_file']);
    expect(view.has('git_diff')).toBe(false);
    view.load(['git']);
    expect(view.has('git_diff')).toBe(true);
  });

  it('refuses an unknown group, naming the valid ones, and loads none of the list', () => {
    const view = registry().grouped(['files']);
    let error: unknown;
    try {
      view.load(['git', 'nope']);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(UnknownGroupError);
    expect((error as Error).message).toBe(
      'unknown tool group "nope"; valid groups: code, files, git, mcp:fx, other, search',
    );
    expect(view.has('git_status')).toBe(false);
    expect(() => registry().grouped(['web'])).toThrow(/unknown tool group "web"/);
  });

  it('suggests the group a misspelled name meant', () => {
    expect(() => registry().grouped(['files']).load(['serach'])).toThrow(
      'unknown tool group "serach" (did you mean "search"?); valid groups: code, files, git, mcp:fx, other, search',
    );
  });
});
