// Tool groups for hierarchical loading, on a real registry: which group a tool falls in, a view
// that shows loaded groups only, loading more, and the error for a name that is no group.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from './define.js';
import { defineGroup, groupOf, UnknownGroupError } from './groups.js';
import { ToolRegistry } from './registry.js';
import type { ToolSpec } from './tool.js';
import type { RegistryChange } from './source.js';

const tool = (name: string, more: Pick<ToolSpec, 'category' | 'group'> = {}) =>
  defineTool({ name, description: `${name}.`, input: z.object({}), effect: 'read', execute: () => name, ...more });

const FILES = defineGroup('files', 'read and list files');
const GIT = defineGroup('git', 'status, log, commit');
const CODE = defineGroup('code', 'symbols and references');
const FX = defineGroup('mcp:fx', (tools) => `tools of server "fx": ${tools.join(', ')}`);

function registry() {
  return new ToolRegistry().registerAll([
    tool('read_file', { category: 'fs', group: FILES }),
    tool('grep', { category: 'search' }),
    tool('git_status', { category: 'git', group: GIT }),
    tool('git_log', { category: 'git', group: 'git' }),
    tool('code_lookup', { category: 'lsp', group: CODE }),
    tool('fx__echo', { category: 'mcp', group: FX }),
    tool('loose'),
  ]);
}

describe('tool groups', () => {
  it('takes the group a tool names or declares, else its category, else "other"', () => {
    const r = registry();
    expect(['read_file', 'code_lookup', 'git_log', 'grep', 'fx__echo', 'loose'].map((n) => groupOf(r.get(n)!))).toEqual(
      ['files', 'code', 'git', 'search', 'mcp:fx', 'other'],
    );
  });

  it('lists every group with the summary its family declared (else its tools) and its tools', () => {
    const groups = registry().groups();
    expect(groups.map((g) => g.name)).toEqual(['code', 'files', 'git', 'mcp:fx', 'other', 'search']);
    expect(groups.find((g) => g.name === 'git')).toEqual({
      name: 'git',
      tools: ['git_status', 'git_log'],
      summary: 'status, log, commit',
    });
    expect(groups.find((g) => g.name === 'mcp:fx')!.summary).toBe('tools of server "fx": fx__echo');
    expect(groups.find((g) => g.name === 'search')!.summary).toBe('grep');
    expect(Object.isFrozen(GIT)).toBe(true);
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
    r.register(tool('write_file', { category: 'fs', group: FILES }));
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
