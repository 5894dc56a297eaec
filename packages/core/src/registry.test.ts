import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BaseTool, defineTool } from './define.js';
import { annotationsFor, toProviderFormat } from './formats.js';
import { ToolRegistry } from './registry.js';
import type { RegistryChange } from './source.js';
import type { Effect } from './tool.js';

const t = (name: string, category?: string, effect: 'read' | 'write' = 'read') =>
  defineTool({
    name,
    category,
    description: `${name} tool`,
    effect,
    input: z.object({ a: z.string().describe('an a') }),
    execute: () => name,
  });

describe('defineTool', () => {
  it('refuses names providers reject, empty descriptions and unknown effects', () => {
    expect(() => t('has space')).toThrow(/invalid tool name/);
    expect(() => t('x'.repeat(65))).toThrow(/invalid tool name/);
    expect(() =>
      defineTool({ name: 'n', description: ' ', effect: 'read', input: z.object({}), execute: () => '' }),
    ).toThrow(/description/);
    expect(() =>
      defineTool({ name: 'n', description: 'd', effect: 'sideways' as never, input: z.object({}), execute: () => '' }),
    ).toThrow(/unknown effect/);
    expect(() =>
      defineTool({
        name: 'n',
        description: 'd',
        effect: () => 'read',
        usualEffect: 'mostly' as never,
        input: z.object({}),
        execute: () => '',
      }),
    ).toThrow('tool "n" has unknown usualEffect "mostly"; use one of read, write, execute, destructive');
    expect(() =>
      defineTool({ name: 'n', description: 'd', effect: 'read', input: z.string() as never, execute: () => '' }),
    ).toThrow(/must describe an object/);
  });

  it('supports the class form with automatic validation', () => {
    class Upper extends BaseTool<{ s: string }> {
      readonly name = 'upper';
      readonly description = 'Upper-cases s.';
      readonly input = z.object({ s: z.string() });
      readonly effect = 'read' as const;
      execute(i: { s: string }) {
        return i.s.toUpperCase();
      }
    }
    const u = new Upper();
    expect(u.jsonSchema.required).toEqual(['s']);
    expect(u.parse({ s: 1 }).ok).toBe(false);
    expect(new ToolRegistry().register(u).get('upper')).toBe(u);
  });
});

describe('ToolRegistry', () => {
  it('refuses a duplicate name unless replace is asked for', () => {
    const r = new ToolRegistry().register(t('a'));
    expect(() => r.register(t('a'))).toThrow(/already registered.*replace: true/);
    const b = t('a');
    r.register(b, { replace: true });
    expect(r.get('a')).toBe(b);
  });

  it('registerAll is all or nothing', () => {
    const r = new ToolRegistry().register(t('a'));
    expect(() => r.registerAll([t('b'), t('a')])).toThrow();
    expect(r.has('b')).toBe(false);
  });

  it('filters by names, "all", category and predicate', () => {
    const r = new ToolRegistry().registerAll([t('a', 'fs'), t('b', 'git'), t('c', 'fs', 'write')]);
    expect(r.list('all').map((x) => x.name)).toEqual(['a', 'b', 'c']);
    expect(r.list(['all']).length).toBe(3);
    expect(r.list(['b', 'zzz']).map((x) => x.name)).toEqual(['b']);
    expect(r.list({ category: 'fs' }).map((x) => x.name)).toEqual(['a', 'c']);
    expect(r.list({ category: 'fs', predicate: (x) => x.effect === 'write' }).map((x) => x.name)).toEqual(['c']);
  });

  it('a scoped view shows only the allow-list and follows later changes', () => {
    const r = new ToolRegistry().registerAll([t('a'), t('b')]);
    const view = r.scoped(['a', 'c']);
    expect(view.list().map((x) => x.name)).toEqual(['a']);
    expect(view.get('b')).toBeUndefined();
    r.register(t('c'));
    expect(view.has('c')).toBe(true);
  });

  it('registers conditionally, only when the condition holds', () => {
    const r = new ToolRegistry();
    expect(r.registerIf(undefined, () => t('web_search'))).toBe(false);
    expect(r.registerIf('key', () => t('web_search'))).toBe(true);
    expect(r.has('web_search')).toBe(true);
  });

  it('tells listeners about additions, replacements and removals', () => {
    const r = new ToolRegistry();
    const seen: RegistryChange[] = [];
    const off = r.onChange((c) => seen.push(c));
    r.register(t('a'));
    r.register(t('a'), { replace: true });
    r.unregister('a');
    r.unregister('a');
    off();
    r.register(t('b'));
    expect(seen).toEqual([
      { type: 'added', name: 'a' },
      { type: 'replaced', name: 'a' },
      { type: 'removed', name: 'a' },
    ]);
  });
});

describe('provider formats', () => {
  const tool = t('read_it');
  it('speaks each provider', () => {
    expect(toProviderFormat(tool, 'openai')).toMatchObject({
      type: 'function',
      function: { name: 'read_it', parameters: { type: 'object' } },
    });
    expect(toProviderFormat(tool, 'anthropic')).toMatchObject({ name: 'read_it', input_schema: { type: 'object' } });
    expect(toProviderFormat(tool, 'mcp')).toMatchObject({
      name: 'read_it',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
    });
    expect(toProviderFormat(tool, 'vercel-ai')).toMatchObject({
      description: 'read_it tool',
      inputSchema: { type: 'object' },
    });
    expect(toProviderFormat(tool, 'openai-responses')).toEqual({
      type: 'function',
      name: 'read_it',
      description: 'read_it tool',
      parameters: tool.jsonSchema,
      strict: false,
    });
  });

  it('says type "object" for an input schema that leaves it out, as every provider requires', () => {
    const untyped = defineTool({
      name: 'untyped',
      description: 'd',
      effect: 'read',
      input: { properties: { a: { type: 'string' } } },
      execute: () => '',
    });
    expect(toProviderFormat(untyped, 'anthropic').input_schema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'string' } },
    });
    expect(untyped.jsonSchema).not.toHaveProperty('type');
  });

  it('gives Gemini its parameters as JSON Schema, with only the keywords it reads', () => {
    const g = toProviderFormat(
      defineTool({
        name: 'g',
        description: 'd',
        effect: 'read',
        input: {
          type: 'object',
          additionalProperties: false,
          properties: { x: { type: ['string', 'null'], $comment: 'no' } },
        },
        execute: () => '',
      }),
      'gemini',
    );
    expect(g.parametersJsonSchema).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: { x: { type: ['string', 'null'] } },
    });
  });

  it('lists an MCP title only when it says more than the name', () => {
    const titled = (title: string) =>
      toProviderFormat(
        defineTool({
          name: 'read_file',
          title,
          description: 'd',
          effect: 'read',
          input: z.object({}),
          execute: () => '',
        }),
        'mcp',
      );
    expect(titled('Read file')).not.toHaveProperty('title');
    expect(titled('Read a file')).toMatchObject({ title: 'Read a file' });
  });

  it('maps effects to MCP hints, claiming the worst for per-call effects', () => {
    expect(annotationsFor(t('w', undefined, 'write'))).toMatchObject({ destructiveHint: false });
    const dyn = defineTool({
      name: 'd',
      description: 'd',
      effect: () => 'read',
      input: z.object({}),
      execute: () => '',
    });
    expect(annotationsFor(dyn)).toMatchObject({ destructiveHint: true });
  });

  it("maps a per-call tool's usual effect to MCP hints, with its own destructive annotation for writes and commands", () => {
    const usual = (usualEffect: Effect, annotations?: { destructive?: boolean }) =>
      annotationsFor(
        defineTool({
          name: 'u',
          description: 'd',
          effect: () => usualEffect,
          usualEffect,
          ...(annotations ? { annotations } : {}),
          input: z.object({}),
          execute: () => '',
        }),
      );
    expect(usual('read')).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(usual('write')).toEqual({ destructiveHint: false, openWorldHint: false });
    expect(usual('write', { destructive: true })).toMatchObject({ destructiveHint: true });
    expect(usual('execute')).toMatchObject({ destructiveHint: true });
    expect(usual('execute', { destructive: false })).toMatchObject({ destructiveHint: false });
    expect(usual('destructive', { destructive: false })).toMatchObject({ destructiveHint: true });
  });
});
