import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileSchema } from './schema.js';

describe('Zod schemas', () => {
  const s = compileSchema(z.object({ path: z.string().describe('file'), limit: z.number().int().min(1).default(100), mode: z.enum(['a', 'b']).optional() }));

  it('converts to JSON Schema with descriptions and defaults', () => {
    expect(s.jsonSchema.type).toBe('object');
    expect(s.jsonSchema.required).toEqual(['path']);
    expect((s.jsonSchema.properties as Record<string, { description?: string; default?: unknown }>).path.description).toBe('file');
    expect((s.jsonSchema.properties as Record<string, { default?: unknown }>).limit.default).toBe(100);
    expect(s.jsonSchema.$schema).toBeUndefined();
  });

  it('publishes no safe-integer bounds for .int() but keeps real ones and still enforces integers', () => {
    const ints = compileSchema(z.object({ line: z.number().int(), page: z.number().int().min(1).max(50), items: z.array(z.object({ n: z.number().int() })) }));
    const props = ints.jsonSchema.properties as Record<string, Record<string, unknown>>;
    expect(props.line).toEqual({ type: 'integer' });
    expect(props.page).toEqual({ type: 'integer', minimum: 1, maximum: 50 });
    expect(JSON.stringify(ints.jsonSchema)).not.toContain(String(Number.MAX_SAFE_INTEGER));
    expect(ints.parse({ line: 1.5, page: 1, items: [] }).ok).toBe(false);
    expect(ints.parse({ line: 2 ** 60, page: 1, items: [] }).ok).toBe(false);
  });

  it('applies defaults', () => {
    expect(s.parse({ path: 'a' })).toEqual({ ok: true, value: { path: 'a', limit: 100 } });
  });

  it('reports every problem with its path and the value received', () => {
    const r = s.parse({ limit: 'ten', mode: 'c' });
    expect(r.ok).toBe(false);
    const msg = (r as { message: string }).message;
    expect(msg).toContain('`path` is required');
    expect(msg).toContain('`limit` must be a number; got "ten"');
    expect(msg).toContain('`mode` must be one of "a", "b"; got "c"');
  });

  it('says the bound that was broken', () => {
    expect((s.parse({ path: 'a', limit: 0 }) as { message: string }).message).toBe('`limit` must be >= 1; got 0');
  });
});

describe('JSON Schemas', () => {
  const s = compileSchema({
    type: 'object',
    properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } }, n: { type: 'integer', default: 3 } },
    required: ['name'],
    additionalProperties: false,
  });

  it('validates with Ajv, applies defaults, and leaves the caller object untouched', () => {
    const input = { name: 'x' };
    expect(s.parse(input)).toEqual({ ok: true, value: { name: 'x', n: 3 } });
    expect(input).toEqual({ name: 'x' });
  });

  it('reports nested paths, unknown keys and missing fields together', () => {
    const r = s.parse({ tags: ['a', 2], extra: 1 }) as { ok: false; message: string };
    expect(r.ok).toBe(false);
    expect(r.message).toContain('`name` is required');
    expect(r.message).toContain('`tags[1]` must be a string; got 2');
    expect(r.message).toContain('unknown parameter "extra" (valid parameters: name, tags, n)');
    expect(r.message).not.toContain('`extra`');
  });

  it('refuses a broken schema at definition time with a clear error', () => {
    expect(() => compileSchema({ type: 'object', properties: { a: { type: 'no-such-type' } } })).toThrow(/invalid JSON Schema/);
  });
});
