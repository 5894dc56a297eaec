// Random JSON at every input of the executor must always come back as a well-formed ToolResult.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../define.js';
import { Policy } from '../policy/policy.js';
import { ToolRegistry } from '../registry.js';
import type { ToolResult } from '../result.js';
import { Executor } from './executor.js';

const registry = new ToolRegistry().registerAll([
  defineTool({
    name: 'zod_tool',
    description: 'd',
    effect: 'read',
    input: z.object({
      a: z.string(),
      n: z.number().int().min(0).max(10).default(1),
      list: z.array(z.object({ k: z.boolean() })).optional(),
    }),
    execute: ({ a, n }) => a.repeat(n),
  }),
  defineTool({
    name: 'json_tool',
    description: 'd',
    effect: 'write',
    input: {
      type: 'object',
      properties: { x: { type: 'number' }, y: { type: 'array', items: { type: 'string' } } },
      required: ['x'],
    },
    execute: (i) => JSON.stringify(i),
  }),
  defineTool({
    name: 'dyn_tool',
    description: 'd',
    effect: (i: { cmd: string }) => ({
      effect: i.cmd.startsWith('rm') ? 'destructive' : 'read',
      subject: { commands: [i.cmd] },
    }),
    input: z.object({ cmd: z.string() }),
    execute: ({ cmd }) => cmd,
  }),
  defineTool({
    name: 'throwing_tool',
    description: 'd',
    effect: 'read',
    input: z.object({}).passthrough(),
    execute: (i) => {
      throw Object.keys(i).length ? new Error('x') : 'a string, not an Error';
    },
  }),
]);
const executor = new Executor({
  registry,
  policy: new Policy({ mode: 'auto-edit' }),
  approver: async (r) => (r.tool.length % 2 ? { outcome: 'approve' } : { outcome: 'reject' }),
});
const names = ['zod_tool', 'json_tool', 'dyn_tool', 'throwing_tool'];

function wellFormed(r: ToolResult, tool: unknown): void {
  expect(['success', 'error', 'rejected', 'pending']).toContain(r.status);
  expect(typeof r.callId).toBe('string');
  expect(typeof r.tool).toBe('string');
  if (typeof tool === 'string') expect(r.tool).toBe(tool);
  expect(Array.isArray(r.content)).toBe(true);
  expect(Number.isFinite(r.durationMs)).toBe(true);
  for (const block of r.content) expect(['text', 'json', 'image']).toContain(block.type);
  if (r.status === 'error') {
    expect(typeof r.error?.code).toBe('string');
    expect(r.error!.message.length).toBeGreaterThan(0);
  }
  expect(() => JSON.stringify(r)).not.toThrow();
}

describe('executor fuzz', () => {
  it('any tool name and any JSON input yields a well-formed result', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constantFrom(...names), fc.string(), fc.jsonValue(), fc.object(), fc.anything()),
        fc.oneof(fc.jsonValue(), fc.object(), fc.string(), fc.anything()),
        async (tool, input) => {
          const r = await executor.call({ tool: tool as string, input });
          wellFormed(r, tool);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('inputs shaped like the real schemas, with random values, yield well-formed results', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...names),
        fc.dictionary(fc.constantFrom('a', 'n', 'list', 'x', 'y', 'cmd', '__proto__', 'constructor'), fc.jsonValue()),
        async (tool, input) => {
          wellFormed(await executor.call({ tool, input }), tool);
        },
      ),
      { numRuns: 1500 },
    );
  });
});
