import { decode } from '@toon-format/toon';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from './define.js';
import { Executor } from './executor/executor.js';
import { Policy } from './policy/policy.js';
import { ToolRegistry } from './registry.js';
import { structuredText } from './structured-text.js';

const rows = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, name: `item ${i + 1}`, done: i % 2 === 0 }));

describe('structured data as text for a model', () => {
  it('json is pretty JSON, as before', () => {
    expect(structuredText({ rows }, 'json')).toBe(JSON.stringify({ rows }, null, 2));
  });

  it('toon states the keys of a uniform array once, and decodes back to the same value', () => {
    const text = structuredText({ rows }, 'toon');
    expect(text.split('\n')[0]).toBe('rows[20]{id,name,done}:');
    expect(text.length).toBeLessThan(JSON.stringify({ rows }).length);
    expect(decode(text)).toEqual({ rows });
  });

  it('toon falls back to compact JSON where TOON is not shorter', () => {
    const irregular = { a: { b: { c: [1, { d: [2, [3, 4]] }] } } };
    const text = structuredText(irregular, 'toon');
    expect(text.length).toBeLessThanOrEqual(JSON.stringify(irregular).length);
    expect(text === JSON.stringify(irregular) ? JSON.parse(text) : decode(text)).toEqual(irregular);
  });

  it("an executor with structuredText: 'toon' gives a structured-only output to the model as TOON", async () => {
    const tool = defineTool({
      name: 'todo',
      description: 'd',
      effect: 'read',
      input: z.object({}),
      execute: () => ({ structured: { rows } }),
    });
    const call = (structured?: 'toon') =>
      new Executor({
        registry: new ToolRegistry().register(tool),
        policy: new Policy({ mode: 'yolo' }),
        ...(structured ? { structuredText: structured } : {}),
      }).call({
        tool: 'todo',
        input: {},
      });
    const [plain, toon] = [await call(), await call('toon')];
    const text = (r: typeof plain) => (r.content[0] as { text: string }).text;
    expect(text(plain)).toBe(JSON.stringify({ rows }, null, 2));
    expect(text(toon)).toBe(structuredText({ rows }, 'toon'));
    expect(toon.status === 'success' && toon.structured).toEqual({ rows });
  });
});
