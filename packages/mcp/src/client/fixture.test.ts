// The client against a real SDK server with odd names, hints, a changing tool list and cancellation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Executor, Policy, textOf, TOOL_NAME, ToolRegistry, type RegistryChange } from '@toolbelt/core';
import { executorFor, fixture, until } from '../__fixtures__/servers.js';
import { McpManager } from './manager.js';

describe('McpManager with the fixture server', () => {
  const registry = new ToolRegistry();
  const changes: RegistryChange[] = [];
  let manager: McpManager;
  let executor: Executor;
  process.env.TOOLBELT_TEST_SECRET = 'do-not-leak';

  beforeAll(async () => {
    registry.onChange((c) => void changes.push(c));
    manager = new McpManager({
      servers: {
        fx: fixture({ env: { FROM_CONFIG: 'yes' }, excludeTools: ['limits'], trust: 'read' }),
        strict: fixture({ minEffect: 'write', allowedTools: ['echo', 'wi*'], trust: 'read' }),
        ...(process.platform === 'linux'
          ? {
              limited: fixture({
                allowedTools: ['limits'],
                limits: { openFiles: 256, cpuSeconds: 3600, memoryMb: 4096 },
              }),
            }
          : {}),
      },
      registry,
    });
    await manager.start();
    executor = executorFor(registry);
  });
  afterAll(async () => {
    delete process.env.TOOLBELT_TEST_SECRET;
    await executor.close();
    await manager.close();
  });

  it('sanitizes names, shortens long ones, and never gives two tools one name', async () => {
    const names = manager.toolsOf('fx');
    for (const n of names) expect(n).toMatch(TOOL_NAME);
    expect(new Set(names).size).toBe(names.length);
    // The clean twin keeps the plain name; the weird one gets a hash instead of colliding.
    expect(names).toContain('fx__weird_name_with_chars');
    const weird = names.find((n) => n.startsWith('fx__weird_name_with_chars_'))!;
    expect(weird).toMatch(/^fx__weird_name_with_chars_[0-9a-f]{8}$/);
    const long = names.find((n) => n.startsWith('fx__xxxx'))!;
    expect(long.length).toBe(64);
    expect(textOf(await executor.call({ tool: weird }))).toBe('weird');
    expect(textOf(await executor.call({ tool: 'fx__weird_name_with_chars' }))).toBe('clean');
    expect(textOf(await executor.call({ tool: long }))).toBe('long');
  });

  it('applies allowedTools and excludeTools', () => {
    expect(registry.has('fx__limits')).toBe(false);
    expect(registry.has('fx__echo')).toBe(true);
    expect(manager.toolsOf('strict').sort()).toEqual(['strict__echo', 'strict__wipe']);
  });

  it('lets hints make a call stricter but never looser than the config says', async () => {
    expect(registry.get('fx__echo')!.effect).toBe('read');
    // wipe claims read-only *and* destructive: the stricter claim wins.
    expect(registry.get('fx__wipe')!.effect).toBe('destructive');
    // minEffect "write": readOnlyHint cannot lower it; destructiveHint can still raise it.
    expect(registry.get('strict__echo')!.effect).toBe('write');
    expect(registry.get('strict__wipe')!.effect).toBe('destructive');
    // A rule that asks for the server's tools still asks for a read-only one.
    const asking = new Executor({
      registry,
      policy: new Policy({ mode: 'yolo', rules: [{ tool: 'fx__*', action: 'ask' }] }),
    });
    const explained = await asking.explain({ tool: 'fx__echo', input: { text: 'x' } });
    expect(explained.decision?.action).toBe('ask');
    const safe = new Executor({ registry, policy: new Policy({ mode: 'safe' }) });
    expect((await safe.explain({ tool: 'strict__echo', input: { text: 'x' } })).decision?.action).toBe('ask');
    expect((await safe.explain({ tool: 'fx__echo', input: { text: 'x' } })).decision?.action).toBe('allow');
  });

  it('reconnects a server on request without touching its tools in the registry', async () => {
    const pid = manager.connection('fx')!.pid;
    changes.length = 0;
    await manager.reconnect('fx');
    expect(manager.status().fx).toMatchObject({ state: 'connected' });
    expect(manager.connection('fx')!.pid).not.toBe(pid);
    expect(changes).toEqual([]);
    expect(textOf(await executor.call({ tool: 'fx__echo', input: { text: 'again' } }))).toBe('echo: again');
    await expect(manager.reconnect('nobody')).rejects.toThrow('no MCP server named "nobody"');
  });

  it('refuses a parameter the remote schema does not name, and passes extra keys to a tool whose schema takes them', async () => {
    const typo = await executor.call({ tool: 'fx__echo', input: { txt: 'hi' } });
    expect(typo.error?.code).toBe('INVALID_PARAMS');
    expect(typo.error?.message).toBe(
      'Invalid parameters for fx__echo: `text` is required; unknown parameter "txt"; did you mean "text"? (valid parameters: text). Fix them and call again.',
    );
    expect(registry.get('fx__echo')!.jsonSchema.additionalProperties).toBe(false);
    const open = await executor.call({ tool: 'fx__keys', input: { name: 'a', color: 'red' } });
    expect(open.status, textOf(open)).toBe('success');
    expect(textOf(open)).toBe('color,name');
  });

  it('returns an isError result as an error result', async () => {
    const result = await executor.call({ tool: 'fx__fail' });
    expect(result.status).toBe('error');
    expect(result.error?.message).toBe('fail on MCP server "fx" returned an error: the fixture failed on purpose');
  });

  it('adds the tools a server announces through tools/list_changed', async () => {
    changes.length = 0;
    await executor.call({ tool: 'fx__add_tool', input: { name: 'late_arrival' } });
    await until(() => registry.has('fx__late_arrival'), 5_000, 'the new tool');
    expect(textOf(await executor.call({ tool: 'fx__late_arrival' }))).toBe('I am late_arrival');
    // Unchanged tools are not re-registered, so clients see one change, not the whole list again.
    expect(changes).toEqual([{ type: 'added', name: 'fx__late_arrival' }]);
  });

  it('sends cancellation to the server when the call is aborted', async () => {
    const controller = new AbortController();
    const off = executor.events.onType('tool.progress', () => controller.abort());
    const result = await executor.call({ tool: 'fx__slow', input: { ms: 20_000 }, signal: controller.signal });
    off();
    expect(result.status).toBe('error');
    expect(result.error?.code).toBe('ABORTED');
    // The server notices on its next step; ask until it has.
    let seen = '0';
    for (let i = 0; i < 250 && seen !== '1'; i++) {
      seen = textOf(await executor.call({ tool: 'fx__cancellations' }));
      if (seen !== '1') await new Promise((r) => setTimeout(r, 20));
    }
    expect(seen).toBe('1');
  });

  it('starts stdio servers with a clean environment plus what the config passes', async () => {
    const names = textOf(await executor.call({ tool: 'fx__env' })).split('\n');
    expect(names).toContain('FROM_CONFIG');
    expect(names).toContain('PATH');
    expect(names).not.toContain('TOOLBELT_TEST_SECRET');
  });

  it.runIf(process.platform === 'linux')('applies the configured resource limits to the server process', async () => {
    expect(manager.status().limited).toMatchObject({ state: 'connected' });
    const limits = textOf(await executor.call({ tool: 'limited__limits' }));
    expect(limits).toMatch(/Max open files\s+256\s+256/);
    expect(limits).toMatch(/Max cpu time\s+3600\s+3600/);
    expect(limits).toMatch(/Max address space\s+4294967296\s+4294967296/);
  });
});
