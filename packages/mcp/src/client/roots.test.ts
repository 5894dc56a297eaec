// Where stdio servers start and how far their hints are believed: the workspace roots, not
// toolbelt's own cwd, and a read-only claim only from a server the config trusts.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Executor, Policy, textOf, ToolRegistry } from '@toolbelt/core';
import { filesystem, fixture, tempRoot } from '../__fixtures__/servers.js';
import { McpManager } from './manager.js';

describe('stdio servers start inside the workspace', () => {
  const root = realpathSync(tempRoot());
  const second = realpathSync(tempRoot());
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'toolbelt-outside-')));
  const registry = new ToolRegistry();
  let manager: McpManager;
  const executor = new Executor({ registry, policy: new Policy({ mode: 'yolo' }) });

  beforeAll(async () => {
    mkdirSync(join(root, 'sub'));
    mkdirSync(join(second, 'other'));
    symlinkSync(outside, join(root, 'escape'));
    writeFileSync(join(root, 'afile'), '');
    manager = new McpManager({
      roots: [root, second],
      registry,
      servers: {
        plain: fixture({ allowedTools: ['cwd'] }),
        sub: fixture({ allowedTools: ['cwd'], cwd: 'sub' }),
        inSecond: fixture({ allowedTools: ['cwd'], cwd: join(second, 'other') }),
        away: fixture({ cwd: outside }),
        escape: fixture({ cwd: 'escape' }),
        missing: fixture({ cwd: 'nowhere' }),
        notDir: fixture({ cwd: 'afile' }),
      },
    });
    await manager.start();
  });
  afterAll(async () => {
    await executor.close();
    await manager.close();
    for (const dir of [root, second, outside]) rmSync(dir, { recursive: true, force: true });
  });

  it('starts a server in the first root, not in the directory toolbelt runs in', async () => {
    expect(process.cwd()).not.toBe(root);
    expect(textOf(await executor.call({ tool: 'plain__cwd' }))).toBe(root);
  });

  it('starts a server in its configured cwd, relative to the first root or inside another root', async () => {
    expect(textOf(await executor.call({ tool: 'sub__cwd' }))).toBe(join(root, 'sub'));
    expect(textOf(await executor.call({ tool: 'inSecond__cwd' }))).toBe(join(second, 'other'));
  });

  it('refuses a cwd outside the roots, also through a symlink, once and without retrying', () => {
    const status = manager.status();
    for (const name of ['away', 'escape']) {
      expect(status[name], name).toMatchObject({ state: 'failed', attempts: 1 });
      expect(status[name], name).not.toHaveProperty('retryInMs');
      expect((status[name] as { reason: string }).reason).toContain(
        `is outside the workspace roots (${root}, ${second}); a server starts inside them. Use a directory under ${root}, or drop "cwd"`,
      );
    }
    expect(manager.toolsOf('away')).toEqual([]);
  });

  it('says when the configured cwd does not exist or is not a directory', () => {
    expect(manager.status().missing).toMatchObject({
      state: 'failed',
      attempts: 1,
      reason: `invalid config: "cwd" nowhere (${join(root, 'nowhere')}) does not exist; create it or fix "cwd" for this server in mcpServers`,
    });
    expect(manager.status().notDir).toMatchObject({
      state: 'failed',
      reason: expect.stringContaining('is not a directory'),
    });
  });
});

describe("trusting a server's read-only hints", () => {
  const root = realpathSync(tempRoot());
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'toolbelt-outside-')));
  const registry = new ToolRegistry();
  const asked: string[] = [];
  let manager: McpManager;
  const executor = new Executor({
    registry,
    policy: new Policy({ mode: 'safe' }),
    approver: async (request) => (asked.push(request.tool), { outcome: 'reject' }),
  });

  beforeAll(async () => {
    writeFileSync(join(outside, 'secret.txt'), 'outside the workspace\n');
    manager = new McpManager({
      roots: [root],
      registry,
      servers: {
        // The old docs example: "." is the server's cwd, now the workspace root.
        fs: filesystem('.', { allowedTools: ['read_text_file'] }),
        trusted: filesystem('.', { allowedTools: ['read_text_file'], trust: 'read' }),
        fx: fixture({ allowedTools: ['echo', 'wipe'] }),
        fxTrusted: fixture({ allowedTools: ['echo', 'wipe', 'add_tool'], trust: 'read' }),
      },
    });
    await manager.start();
  });
  afterAll(async () => {
    await executor.close();
    await manager.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it("takes an untrusted server's tools as execute whatever readOnlyHint says, and destructiveHint as destructive", () => {
    expect(registry.get('fs__read_text_file')!.effect).toBe('execute');
    expect(registry.get('fx__echo')!.effect).toBe('execute');
    expect(registry.get('fx__wipe')!.effect).toBe('destructive');
    expect(registry.get('trusted__read_text_file')!.effect).toBe('read');
    expect(registry.get('fxTrusted__echo')!.effect).toBe('read');
    // Trust covers read-only claims only: a tool without hints is still execute.
    expect(registry.get('fxTrusted__add_tool')!.effect).toBe('execute');
    expect(registry.get('fxTrusted__wipe')!.effect).toBe('destructive');
  });

  it("asks in safe mode for an untrusted server's read-only tool, and does not run it when rejected", async () => {
    const result = await executor.call({ tool: 'fs__read_text_file', input: { path: join(outside, 'secret.txt') } });
    expect(asked).toEqual(['fs__read_text_file']);
    expect(result.status).toBe('rejected');
    expect(textOf(result)).not.toContain('outside the workspace');
  });

  it('runs a trusted server\'s read-only tool without asking, confined to the root its "." now means', async () => {
    asked.length = 0;
    const inside = await executor.call({ tool: 'trusted__read_text_file', input: { path: 'hello.txt' } });
    expect(inside).toMatchObject({ status: 'success', approvedBy: 'auto' });
    expect(textOf(inside)).toContain('hello from the file system');
    const away = await executor.call({ tool: 'trusted__read_text_file', input: { path: join(outside, 'secret.txt') } });
    expect(away.status).toBe('error');
    expect(away.error?.message).toMatch(/access denied/i);
    expect(asked).toEqual([]);
  });
});
