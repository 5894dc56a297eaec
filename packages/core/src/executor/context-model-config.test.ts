// What a tool's context carries beyond the call: its package's config section (read-only) and, when
// the caller holds one, a model the tool may ask, whose asks end with the call.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../define.js';
import type { ModelHandle, ModelQuestion } from '../model-handle.js';
import { Policy } from '../policy/policy.js';
import { ToolRegistry } from '../registry.js';
import type { ToolContext } from '../tool.js';
import { Executor } from './executor.js';

function setup(toolConfig?: (tool: { name: string; category?: string }) => object | undefined) {
  const seen: ToolContext[] = [];
  const registry = new ToolRegistry();
  const probe = (name: string, category: string, run: (ctx: ToolContext) => unknown = () => 'ok') =>
    defineTool({
      name,
      description: name,
      category,
      input: z.object({}),
      effect: 'read',
      execute: async (_i, ctx) => (seen.push(ctx), String(await run(ctx))),
    });
  registry.register(probe('shell_probe', 'shell'));
  registry.register(probe('web_probe', 'web'));
  registry.register(
    probe('summarize', 'web', async (ctx) => (await ctx.llm!.ask({ messages: 'sum up', system: 'terse' })).text),
  );
  const executor = new Executor({
    registry,
    policy: new Policy({ mode: 'yolo' }),
    ...(toolConfig ? { toolConfig } : {}),
  });
  return { seen, executor };
}

describe('ctx.config', () => {
  const config = { shell: { timeoutMs: 5000, env: { keep: ['PATH'] } }, web: { userAgent: 'tb' } } as Record<
    string,
    object
  >;

  it("holds the section of the tool's package, frozen, the same object for every call of the tool", async () => {
    const { seen, executor } = setup((t) => config[t.category!]);
    await executor.call({ tool: 'shell_probe' });
    await executor.call({ tool: 'shell_probe' });
    await executor.call({ tool: 'web_probe' });
    expect(seen[0].config).toEqual({ timeoutMs: 5000, env: { keep: ['PATH'] } });
    expect(seen[1].config).toBe(seen[0].config);
    expect(seen[2].config).toEqual({ userAgent: 'tb' });
    const section = seen[0].config as { env: { keep: string[] } };
    expect(() => section.env.keep.push('HOME')).toThrow(TypeError);
    expect(() => Object.assign(section, { timeoutMs: 1 })).toThrow(TypeError);
    // A copy: the embedder's own object stays writable and unchanged.
    expect(Object.isFrozen(config.shell)).toBe(false);
    await executor.close();
  });

  it('is undefined when the embedder gives none (control: the same tool gets it when given)', async () => {
    const bare = setup();
    await bare.executor.call({ tool: 'shell_probe' });
    expect(bare.seen[0].config).toBeUndefined();
    const given = setup(() => ({ on: true }));
    await given.executor.call({ tool: 'shell_probe' });
    expect(given.seen[0].config).toEqual({ on: true });
  });
});

describe('ctx.llm', () => {
  it("is the caller's model, asked with the call's signal; absent when the caller has none", async () => {
    const asked: ModelQuestion[] = [];
    const llm: ModelHandle = {
      name: 'm-1',
      ask: async (q) => (asked.push(q), { text: `summary of "${q.messages}"`, model: 'm-1' }),
    };
    const { seen, executor } = setup();
    const r = await executor.call({ tool: 'summarize', llm });
    expect(r.content).toEqual([{ type: 'text', text: 'summary of "sum up"' }]);
    expect(asked[0]).toMatchObject({ messages: 'sum up', system: 'terse' });
    expect(asked[0].signal).toBeInstanceOf(AbortSignal);
    expect(seen[0].llm?.name).toBe('m-1');
    await executor.call({ tool: 'shell_probe' });
    expect(seen[1].llm).toBeUndefined();
    await executor.close();
  });

  it('an ask still running when the call times out is aborted with it', async () => {
    let aborted = false;
    const llm: ModelHandle = {
      ask: (q) =>
        new Promise((_resolve, reject) => {
          q.signal!.addEventListener('abort', () => ((aborted = true), reject(new Error('aborted'))));
        }),
    };
    const { executor } = setup();
    const r = await executor.call({ tool: 'summarize', llm, timeoutMs: 50 });
    expect(r.status).toBe('error');
    expect(r.error?.code).toBe('TIMEOUT');
    expect(aborted).toBe(true);
    await executor.close();
  });
});
