import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../define.js';
import { ToolRegistry } from '../registry.js';
import { Executor } from './executor.js';

const echo = (name: string, aliases?: Parameters<typeof defineTool>[0]['aliases']) =>
  defineTool({
    name,
    description: `echo as ${name}`,
    input: z.strictObject({ text: z.string(), max_results: z.number().optional() }),
    effect: 'read',
    ...(aliases ? { aliases } : {}),
    execute: (input) => `${name}: ${JSON.stringify(input)}`,
  });

describe('aliases in the executor', () => {
  it('refuses a name two tools claim, naming both', async () => {
    const executor = new Executor({
      registry: new ToolRegistry().registerAll([echo('one', { names: ['say'] }), echo('two', { names: ['say'] })]),
    });
    const r = await executor.call({ tool: 'say', input: { text: 'x' } });
    expect(r.error?.code).toBe('UNKNOWN_TOOL');
    expect(r.error?.message).toBe('Ambiguous tool "say": it could be one, two. Call one of them by its own name.');
  });

  it("takes a tool's own name in other letters before another tool's alias of it", async () => {
    const executor = new Executor({
      registry: new ToolRegistry().registerAll([echo('say'), echo('other', { names: ['SAY'] })]),
    });
    const r = await executor.call({ tool: 'Say', input: { text: 'x' } });
    expect([r.tool, r.metadata?.calledAs]).toEqual(['say', 'Say']);
  });

  it('renames declared and camelCase spellings, never over a parameter the call gave', async () => {
    const executor = new Executor({
      registry: new ToolRegistry().register(echo('say', { params: { words: 'text' } })),
    });
    const ok = await executor.call({ tool: 'say', input: { words: 'hi', maxResults: 2 } });
    expect(ok.content).toEqual([{ type: 'text', text: 'say: {"text":"hi","max_results":2}' }]);
    const both = await executor.call({ tool: 'say', input: { text: 'a', words: 'b' } });
    expect(both.error?.code).toBe('INVALID_PARAMS');
  });

  it('sees a tool registered later, and forgets one unregistered', async () => {
    const registry = new ToolRegistry();
    const executor = new Executor({ registry });
    expect((await executor.call({ tool: 'speak', input: { text: 'x' } })).error?.code).toBe('UNKNOWN_TOOL');
    registry.register(echo('say', { names: ['speak'] }));
    expect((await executor.call({ tool: 'speak', input: { text: 'x' } })).status).toBe('success');
    registry.unregister('say');
    expect((await executor.call({ tool: 'speak', input: { text: 'x' } })).error?.code).toBe('UNKNOWN_TOOL');
  });
});
