// Listings and MCP hints show a tool's usual effect before any input is known: every built-in
// whose effect is judged per call must declare one.
import { describe, expect, it } from 'vitest';
import { EFFECTS, usualEffectOf } from '@toolbelt/core';
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
});
