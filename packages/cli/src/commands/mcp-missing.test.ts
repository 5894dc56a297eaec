// An MCP server whose command is not installed: one clean line that names it, printed once.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMain } from '../__fixtures__/run-main.js';
import { useIsolatedState, writeTrustedConfig } from '../__fixtures__/trust.js';

useIsolatedState();
const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

function workspace(server: Record<string, unknown>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tb-mcp-missing-')));
  roots.push(root);
  writeTrustedConfig(root, {
    mcpServers: { ghost: { command: 'toolbelt-no-such-command', trust: 'read', ...server } },
  });
  return root;
}

describe('toolbelt mcp --status with a command that is not installed', () => {
  it.each([
    ['without limits', {}],
    ['with resource limits (bash execs it)', { limits: { openFiles: 256 } }],
  ])('%s: says the command was not found, once', async (_label, server) => {
    const run = await runMain(['mcp', '--status', '--root', workspace(server)]);
    const all = run.out + run.err;
    expect(run.code).toBe(1);
    expect(all).toContain('the command "toolbelt-no-such-command" was not found');
    expect(all).not.toContain('toolbelt-limits');
    expect(all.split('was not found').length - 1).toBe(1);
    expect(run.out).toMatch(
      /^ghost {2}failed: the command "toolbelt-no-such-command" was not found \(ENOENT\); fix "command" for this server in mcpServers/,
    );
    expect(run.out).toContain('Details in ');
    expect(run.err).not.toContain('ghost');
  });
});
