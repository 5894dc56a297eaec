import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { closestParameter } from './similar-names.js';
import { compileSchema, type JsonSchema } from './schema.js';

const failure = (r: { ok: boolean; message?: string }) => {
  expect(r.ok).toBe(false);
  return (r as { message: string }).message;
};

describe('unknown parameters', () => {
  it('refuses a key a Zod object does not name, and publishes additionalProperties: false', () => {
    const s = compileSchema(
      z.object({ pattern: z.string(), max_results: z.number().optional(), literal: z.boolean().optional() }),
    );
    expect(s.jsonSchema.additionalProperties).toBe(false);
    expect(failure(s.parse({ pattern: 'x', head_limit: 20 }))).toBe(
      'unknown parameter "head_limit"; did you mean "max_results"? (valid parameters: pattern, max_results, literal)',
    );
    expect(s.parse({ pattern: 'x', max_results: 20 })).toEqual({ ok: true, value: { pattern: 'x', max_results: 20 } });
  });

  it('reports unknown keys after the other problems, once even for a strict object', () => {
    const plain = compileSchema(z.object({ path: z.string() }));
    expect(failure(plain.parse({ file_path: 'a' }))).toBe(
      '`path` is required (string); unknown parameter "file_path"; did you mean "path"? (valid parameters: path)',
    );
    const strict = compileSchema(z.strictObject({ path: z.string() }));
    expect(failure(strict.parse({ path: 'a', extra: 1 }))).toBe('unknown parameter "extra" (valid parameters: path)');
  });

  it('lets a Zod object that takes other keys keep taking them', () => {
    const loose = compileSchema(z.looseObject({ a: z.string() }));
    expect(loose.parse({ a: 'x', b: 1 })).toEqual({ ok: true, value: { a: 'x', b: 1 } });
    expect(loose.jsonSchema.additionalProperties).toEqual({});
    expect(compileSchema(z.record(z.string(), z.number())).parse({ any: 1 }).ok).toBe(true);
  });

  it('refuses a key a JSON Schema does not name unless the schema allows other keys', () => {
    const props = { query: { type: 'string' }, limit: { type: 'integer' } };
    const closed = compileSchema({ type: 'object', properties: props, required: ['query'] });
    expect(closed.jsonSchema.additionalProperties).toBe(false);
    expect(failure(closed.parse({ query: 'q', lmit: 3 }))).toBe(
      'unknown parameter "lmit"; did you mean "limit"? (valid parameters: query, limit)',
    );
    for (const open of [
      { additionalProperties: true },
      { additionalProperties: { type: 'number' } },
      { patternProperties: { '^x-': {} } },
    ] as JsonSchema[]) {
      const s = compileSchema({ type: 'object', properties: props, ...open });
      expect(s.jsonSchema.additionalProperties, JSON.stringify(open)).toEqual(open.additionalProperties);
      expect(s.parse({ query: 'q', 'x-extra': 3 }).ok, JSON.stringify(open)).toBe(true);
    }
    expect(compileSchema({ type: 'object' }).parse({ anything: 1 }).ok).toBe(true);
  });

  it('takes the names of every branch of a union, and says when a tool takes no parameters', () => {
    const union = compileSchema({
      anyOf: [
        { type: 'object', properties: { a: { type: 'string' } } },
        { type: 'object', properties: { b: { type: 'string' } } },
      ],
    });
    expect(union.parse({ b: 'x' }).ok).toBe(true);
    expect(failure(union.parse({ colour: 'x' }))).toContain('unknown parameter "colour" (valid parameters: a, b)');
    expect(union.jsonSchema.additionalProperties).toBeUndefined();
    expect(failure(compileSchema(z.object({})).parse({ verbose: true }))).toBe(
      'unknown parameter "verbose" (this tool takes no parameters)',
    );
  });
});

describe('closestParameter', () => {
  const grep = [
    'pattern',
    'path',
    'glob',
    'type',
    'case_insensitive',
    'literal',
    'output_mode',
    'before',
    'after',
    'context',
    'multiline',
    'max_results',
    'include_ignored',
  ];

  it('finds the parameter meant by a misspelling, another casing or a borrowed name', () => {
    expect(closestParameter('patern', grep)).toBe('pattern');
    expect(closestParameter('maxResults', grep)).toBe('max_results');
    expect(closestParameter('head_limit', grep)).toBe('max_results');
    expect(closestParameter('limit', grep)).toBe('max_results');
    expect(closestParameter('ignore_case', grep)).toBe('case_insensitive');
    expect(closestParameter('file_path', ['path', 'offset', 'limit'])).toBe('path');
  });

  it('suggests nothing when no parameter is close', () => {
    expect(closestParameter('color', grep)).toBeUndefined();
    expect(closestParameter('-i', grep)).toBeUndefined();
  });
});
