// The generated OpenAPI document: the shape of an OpenAPI 3.1 document, every schema in it valid
// JSON Schema 2020-12 (compiled by Ajv in strict mode), every $ref resolving, every path parameter
// declared, and its body schemas refusing what the gateway refuses.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { PROVIDER_FORMATS } from '@toolbelt/core';
import { FORMATS, ROUTES } from '@toolbelt/protocol';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from './openapi.js';

const doc = openApiDocument();
type Operation = {
  operationId: string;
  parameters?: { name: string; in: string; required?: boolean; schema: object }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: object }> };
  security?: unknown[];
  responses: Record<string, { description: string; content?: Record<string, { schema: object }> }>;
};
const paths = doc.paths as Record<string, Record<string, Operation>>;
const operations = Object.entries(paths).flatMap(([path, ops]) =>
  Object.entries(ops as Record<string, Operation>).map(([method, op]) => ({ path, method, op })),
);

// The parts of the OpenAPI 3.1 schema this document uses, as JSON Schema.
const media = { type: 'object', required: ['schema'], properties: { schema: { type: 'object' } } };
const content = { type: 'object', additionalProperties: media };
const OPENAPI_SHAPE = {
  type: 'object',
  required: ['openapi', 'info', 'paths', 'components'],
  properties: {
    openapi: { type: 'string', pattern: '^3\\.1\\.\\d+$' },
    info: { type: 'object', required: ['title', 'version'] },
    servers: { type: 'array', items: { type: 'object', required: ['url'] } },
    paths: {
      type: 'object',
      propertyNames: { pattern: '^/' },
      additionalProperties: {
        type: 'object',
        propertyNames: { enum: ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] },
        additionalProperties: {
          type: 'object',
          required: ['operationId', 'summary', 'responses'],
          properties: {
            parameters: {
              type: 'array',
              items: {
                type: 'object',
                required: ['name', 'in', 'schema'],
                properties: { in: { enum: ['path', 'query', 'header', 'cookie'] } },
              },
            },
            requestBody: { type: 'object', required: ['content'], properties: { content } },
            responses: {
              type: 'object',
              minProperties: 1,
              propertyNames: { pattern: '^[1-5]\\d\\d$' },
              additionalProperties: {
                type: 'object',
                required: ['description'],
                properties: { description: { type: 'string' }, content },
              },
            },
          },
        },
      },
    },
    components: { type: 'object', required: ['schemas'] },
  },
};

/** Every schema of the document compiled in strict mode, the components added once as $defs. */
const COMPONENTS = 'https://toolbelt.invalid/components';
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
ajv.addSchema({ $id: COMPONENTS, $defs: relinked(doc.components.schemas, '#/$defs/') });
function relinked<T>(schema: T, to: string): T {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${to}`)) as T;
}
const compile = (schema: object) => ajv.compile(relinked(schema, `${COMPONENTS}#/$defs/`));

describe('the generated OpenAPI document', () => {
  it('has the shape of an OpenAPI 3.1 document', () => {
    const check = new Ajv2020({ strict: false }).compile(OPENAPI_SHAPE);
    expect(check(doc) ? [] : check.errors).toEqual([]);
  });

  it('holds every route of the table once, by its key', () => {
    expect(operations.map((o) => o.op.operationId).sort()).toEqual(Object.keys(ROUTES).sort());
  });

  it('declares each path parameter, required', () => {
    for (const { path, op } of operations) {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declared = (op.parameters ?? []).filter((p) => p.in === 'path');
      expect(
        declared.map((p) => p.name),
        path,
      ).toEqual(inPath);
      expect(declared.every((p) => p.required)).toBe(true);
    }
  });

  it('has only valid JSON Schemas, whose references all resolve', () => {
    for (const [name, schema] of Object.entries(doc.components.schemas))
      expect(() => compile(schema), name).not.toThrow();
    let count = 0;
    for (const { path, op } of operations) {
      const media = [
        ...Object.values(op.requestBody?.content ?? {}),
        ...Object.values(op.responses).flatMap((r) => Object.values(r.content ?? {})),
      ];
      for (const m of media) {
        expect(() => compile(m.schema), path).not.toThrow();
        count++;
      }
      for (const p of op.parameters ?? []) expect(() => compile(p.schema), `${path} ${p.name}`).not.toThrow();
    }
    expect(count).toBeGreaterThan(60);
  });

  it('describes the bodies the gateway reads: a misspelt field or a missing one is refused', () => {
    const body = compile(paths['/api/runs/{runId}/tool-calls'].post.requestBody!.content['application/json'].schema);
    expect(body({ agentId: 'a', name: 'echo', input: { text: 'x' } })).toBe(true);
    expect(body({ agentId: 'a', name: 'echo', inptu: {} })).toBe(false);
    expect(body({ name: 'echo' })).toBe(false);
    const approve = paths['/api/tool-calls/{callId}/approve'].post.requestBody!;
    expect(approve.required).toBe(false);
    expect(compile(approve.content['application/json'].schema)({ scope: 'forever' })).toBe(false);
  });

  it('gives every route with a token its 401 and 403, and a public route no security', () => {
    for (const { path, op } of operations) {
      const isPublic = (op as { security?: unknown[] }).security?.length === 0;
      if (!isPublic) expect(Object.keys(op.responses), path).toEqual(expect.arrayContaining(['401', '403']));
    }
    expect(paths['/healthz'].get.security).toEqual([]);
  });

  it("offers the provider formats core knows, in the table's own copy", () => {
    expect([...FORMATS].sort()).toEqual([...PROVIDER_FORMATS].sort());
  });
});
