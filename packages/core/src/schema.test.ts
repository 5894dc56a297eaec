import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { defineTool } from './define.js';
import { compileSchema, zod3Problem } from './schema.js';

describe('Zod schemas', () => {
  const s = compileSchema(
    z.object({
      path: z.string().describe('file'),
      limit: z.number().int().min(1).default(100),
      mode: z.enum(['a', 'b']).optional(),
    }),
  );

  it('converts to JSON Schema with descriptions and defaults', () => {
    expect(s.jsonSchema.type).toBe('object');
    expect(s.jsonSchema.required).toEqual(['path']);
    expect(
      (s.jsonSchema.properties as Record<string, { description?: string; default?: unknown }>).path.description,
    ).toBe('file');
    expect((s.jsonSchema.properties as Record<string, { default?: unknown }>).limit.default).toBe(100);
    expect(s.jsonSchema.$schema).toBeUndefined();
  });

  it('publishes no safe-integer bounds, trivial lower bounds or false boolean defaults, but keeps real ones and still enforces them all', () => {
    const ints = compileSchema(
      z.object({
        line: z.number().int(),
        page: z.number().int().min(1).max(50),
        from: z.number().int().min(5),
        name: z.string().min(1),
        tags: z.array(z.string()).min(1),
        dry: z.boolean().default(false),
        keep: z.boolean().default(true),
        items: z.array(z.object({ n: z.number().int() })),
      }),
    );
    const props = ints.jsonSchema.properties as Record<string, Record<string, unknown>>;
    expect(props.line).toEqual({ type: 'integer' });
    expect(props.page).toEqual({ type: 'integer', maximum: 50 });
    expect(props.from).toEqual({ type: 'integer', minimum: 5 });
    expect(props.name).toEqual({ type: 'string' });
    expect(props.tags).toEqual({ type: 'array', items: { type: 'string' } });
    expect(props.dry).toEqual({ type: 'boolean' });
    expect(props.keep).toEqual({ type: 'boolean', default: true });
    expect(JSON.stringify(ints.jsonSchema)).not.toContain(String(Number.MAX_SAFE_INTEGER));
    const ok = { line: 1, page: 1, from: 5, name: 'a', tags: ['t'], items: [] };
    expect(ints.parse(ok)).toEqual({ ok: true, value: { ...ok, dry: false, keep: true } });
    for (const bad of [{ line: 1.5 }, { line: 2 ** 60 }, { page: 0 }, { name: '' }, { tags: [] }])
      expect(ints.parse({ ...ok, ...bad }).ok, JSON.stringify(bad)).toBe(false);
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

  it("says a pattern's own message, and names a format it failed", () => {
    const ids = compileSchema(
      z.object({ id: z.string().regex(/^[a-z]+$/, 'an id is lower-case letters'), site: z.url().optional() }),
    );
    expect(ids.parse({ id: 'A1' })).toEqual({ ok: false, message: '`id`: an id is lower-case letters; got "A1"' });
    const site = ids.parse({ id: 'a', site: 'nope' });
    expect(!site.ok && site.message).toContain('`site` must be a valid url');
  });

  it('says the bound that was broken', () => {
    expect((s.parse({ path: 'a', limit: 0 }) as { message: string }).message).toBe('`limit` must be >= 1; got 0');
  });
});

describe('JSON Schemas', () => {
  const s = compileSchema({
    type: 'object',
    properties: {
      name: { type: 'string' },
      tags: { type: 'array', items: { type: 'string' } },
      n: { type: 'integer', default: 3 },
    },
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
    expect(() => compileSchema({ type: 'object', properties: { a: { type: 'no-such-type' } } })).toThrow(
      /invalid JSON Schema/,
    );
  });
});

describe('Zod 3 schemas', () => {
  // zod 4 still ships Zod 3 at 'zod/v3': the schemas a project on zod 3 would hand us.
  const zod3 = z3.object({ path: z3.string().nullable() });

  it('are refused by defineTool with the tool named and Zod 4 asked for', () => {
    expect(() =>
      defineTool({ name: 'old', description: 'd', effect: 'read', input: zod3 as never, execute: () => '' }),
    ).toThrow(
      'tool "old": the input schema is a Zod 3 schema, and toolbelt needs Zod 4: install zod@^4 and import { z } from "zod" (on zod 3.25, import { z } from "zod/v4")',
    );
    expect(() =>
      defineTool({
        name: 'out',
        description: 'd',
        effect: 'read',
        input: z.object({}),
        output: zod3 as never,
        execute: () => '',
      }),
    ).toThrow('tool "out": the output schema is a Zod 3 schema');
  });

  it('are refused wherever a schema is compiled, not read as JSON Schema', () => {
    expect(() => compileSchema(zod3 as never)).toThrow(/^this schema is a Zod 3 schema, and toolbelt needs Zod 4/);
  });

  it('are told apart from Zod 4 schemas and JSON Schemas', () => {
    expect(zod3Problem(zod3)).toBeDefined();
    expect(zod3Problem(z.object({ path: z.string().nullable() }))).toBeUndefined();
    expect(zod3Problem({ type: 'object', properties: { _def: { type: 'string' } } })).toBeUndefined();
  });
});
