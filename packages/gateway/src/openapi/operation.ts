// One route of the table as an OpenAPI operation: its parameters, body and answers.
import { ROUTE_SCHEMAS, type QueryParam, type RouteKey, type RouteSchemas, type RouteSpec } from '@toolbelt/protocol';
import type { JsonSchema } from './schemas.js';

const ERROR = { $ref: '#/components/schemas/Error' };
const RESULT = { $ref: '#/components/schemas/ToolResult' };

const json = (schema: unknown, description: string) => ({ description, content: { 'application/json': { schema } } });
const typed = (type: string, description: string) => ({
  description,
  content: { [type]: { schema: { type: 'string' } } },
});

/** `/api/runs/:runId/tool-calls` as OpenAPI writes it: `/api/runs/{runId}/tool-calls`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

function roleText(role: RouteSpec['role']): string {
  if (role === 'public' || role === 'token') return '';
  return ` (role ${typeof role === 'string' ? role : role.join(' or ')})`;
}

function querySchema(q: QueryParam): JsonSchema {
  if (q.type === 'list') return { type: 'string', ...(q.examples ? { examples: q.examples } : {}) };
  return { type: q.type, ...(q.enum ? { enum: q.enum } : {}), ...(q.examples ? { examples: q.examples } : {}) };
}

function parameters(spec: RouteSpec): JsonSchema[] {
  const path = [...spec.path.matchAll(/:(\w+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    description: spec.params?.[name] ?? name,
    schema: { type: 'string', minLength: 1, maxLength: 200 },
  }));
  const query = Object.entries(spec.query ?? {}).map(([name, q]) => ({
    name,
    in: 'query',
    required: false,
    description: q.description,
    schema: querySchema(q),
  }));
  const headers = Object.entries(spec.headers ?? {}).map(([name, description]) => ({
    name,
    in: 'header',
    required: false,
    description,
    schema: { type: 'string' },
  }));
  return [...path, ...query, ...headers];
}

function success(spec: RouteSpec, answer: JsonSchema | undefined): JsonSchema {
  switch (spec.answer ?? 'json') {
    case 'text':
      return typed('text/plain', 'text exposition format');
    case 'event-stream':
      return typed('text/event-stream', 'an event stream');
    case 'html':
      return typed('text/html', 'the console page');
    case 'asset':
      return { description: 'the asset' };
    default:
      return json(answer ?? {}, 'the answer');
  }
}

function responses(spec: RouteSpec, answer: JsonSchema | undefined): JsonSchema {
  const out: JsonSchema = { [String(spec.status ?? 200)]: success(spec, answer) };
  for (const [status, description] of Object.entries(spec.resultErrors ?? {})) out[status] = json(RESULT, description);
  if (spec.answer === 'html') Object.assign(out, { '404': typed('text/html', spec.errors?.['404'] ?? 'not found') });
  for (const [status, description] of Object.entries(spec.errors ?? {})) out[status] ??= json(ERROR, description);
  if (spec.role !== 'public') {
    out['401'] ??= json(ERROR, 'missing or unknown token');
    out['403'] ??= json(
      ERROR,
      'the token lacks the role, or may not act for this agent; or the Host or Origin header is not allowed (every route)',
    );
  } else out['403'] ??= json(ERROR, 'the Host or Origin header is not allowed');
  return out;
}

export function operation(key: RouteKey, spec: RouteSpec, schemas: { body?: JsonSchema; answer?: JsonSchema } = {}) {
  const zod: RouteSchemas = ROUTE_SCHEMAS[key];
  const params = parameters(spec);
  return {
    operationId: key,
    summary: spec.summary + roleText(spec.role),
    ...(spec.description ? { description: spec.description } : {}),
    'x-toolbelt-role': spec.role,
    ...(spec.role === 'public' ? { security: [] } : {}),
    ...(params.length ? { parameters: params } : {}),
    ...(schemas.body
      ? {
          requestBody: {
            // A body every field of which is optional may be left out.
            required: !zod.body?.safeParse({}).success,
            content: { 'application/json': { schema: schemas.body } },
          },
        }
      : {}),
    responses: responses(spec, schemas.answer),
  };
}
