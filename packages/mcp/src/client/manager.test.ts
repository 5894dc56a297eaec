// toolbelt's MCP client against the reference servers (server-filesystem, server-everything).
import { realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf, ToolRegistry, type Executor, type ToolEvent } from '@toolbelt/core';
import { everything, executorFor, filesystem, tempRoot } from '../__fixtures__/servers.js';
import { McpManager } from './manager.js';

describe('McpManager with the reference servers', () => {
  const root = realpathSync(tempRoot());
  const registry = new ToolRegistry();
  let manager: McpManager;
  let executor: Executor;

  beforeAll(async () => {
    manager = new McpManager({
      servers: { fs: filesystem(root, { trust: 'read' }), everything: everything({ timeoutMs: 1_500 }) },
      registry,
    });
    await manager.start();
    executor = executorFor(registry);
  });
  afterAll(async () => {
    await executor.close();
    await manager.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('connects every server and names each remote tool server__tool', () => {
    expect(manager.status().fs).toMatchObject({ state: 'connected', transport: 'stdio' });
    expect(manager.status().everything).toMatchObject({ state: 'connected' });
    expect(registry.has('fs__read_text_file')).toBe(true);
    expect(registry.has('everything__echo')).toBe(true);
    expect(registry.get('fs__read_text_file')!.category).toBe('mcp');
    expect(manager.toolsOf('fs')).toContain('fs__list_directory');
  });

  it('maps readOnlyHint to read for a trusted server, destructiveHint to destructive, and the rest to execute', () => {
    expect(registry.get('fs__read_text_file')!.effect).toBe('read');
    // server-everything is not trusted: its read-only echo is not taken at its word.
    expect(registry.get('everything__echo')!.effect).toBe('execute');
    // server-filesystem marks write_file destructive (it overwrites) and create_directory neither.
    expect(registry.get('fs__write_file')!.effect).toBe('destructive');
    expect(registry.get('fs__create_directory')!.effect).toBe('execute');
  });

  it('calls a remote tool and returns its text', async () => {
    const result = await executor.call({ tool: 'fs__read_text_file', input: { path: join(root, 'hello.txt') } });
    expect(result.status).toBe('success');
    expect(textOf(result)).toContain('hello from the file system');
    expect(result.metadata).toMatchObject({ mcpServer: 'fs', mcpTool: 'read_text_file' });
  });

  it("turns an isError result into an error result with the server's message", async () => {
    const result = await executor.call({ tool: 'fs__read_text_file', input: { path: join(root, 'missing.txt') } });
    expect(result.status).toBe('error');
    expect(result.error?.code).toBe('EXECUTION_FAILED');
    expect(result.error?.message).toMatch(
      /read_text_file on MCP server "fs" returned an error: .*(ENOENT|no such file)/i,
    );
  });

  it('validates input against the remote schema before the call leaves', async () => {
    const result = await executor.call({ tool: 'fs__read_text_file', input: { path: 42 } });
    expect(result.status).toBe('error');
    expect(result.error?.code).toBe('INVALID_PARAMS');
    expect(result.error?.message).toContain('`path` must be a string');
  });

  it('carries structuredContent and images into the result', async () => {
    const structured = await executor.call({
      tool: 'everything__get-structured-content',
      input: { location: 'Chicago' },
    });
    expect(structured.status).toBe('success');
    expect(structured.structured).toMatchObject({ conditions: 'Light rain / drizzle', humidity: 82 });
    const image = await executor.call({ tool: 'everything__get-tiny-image', input: {} });
    expect(image.status).toBe('success');
    expect(image.content.some((b) => b.type === 'image' && b.mimeType === 'image/png' && b.data.length > 0)).toBe(true);
  });

  it('turns progress notifications into progress events, and progress keeps a long call alive past the idle timeout', async () => {
    const events: ToolEvent[] = [];
    const off = executor.events.onType('tool.progress', (e) => void events.push(e));
    // 10 steps of 0.2 s: 2 s in all, longer than the 1.5 s idle timeout, fine because each step reports.
    const result = await executor.call({
      tool: 'everything__trigger-long-running-operation',
      input: { duration: 2, steps: 10 },
    });
    off();
    expect(result.status).toBe('success');
    expect(textOf(result)).toContain('Long running operation completed');
    const mine = events.filter((e) => e.type === 'tool.progress' && e.callId === result.callId);
    // The SDK handles a response before a notification that arrived with it, so the last report may
    // come too late to count; the ones before it all arrive, in order, with the total.
    const values = mine.map((e) => (e as { progress?: number }).progress);
    expect(values.slice(0, 9)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(mine.every((e) => (e as { total?: number }).total === 10)).toBe(true);
  });

  it('times out a call that sends neither result nor progress within the idle timeout', async () => {
    const result = await executor.call({
      tool: 'everything__trigger-long-running-operation',
      input: { duration: 3, steps: 1 },
    });
    expect(result.status).toBe('error');
    expect(result.error?.code).toBe('TIMEOUT');
    expect(result.error?.message).toContain('sent no result or progress for 1500 ms');
    expect(result.error?.recoverable).toBe(true);
  });
});
