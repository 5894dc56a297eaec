// The JSON Schemas of the OpenAPI document, made from the Zod schemas of the route table with Zod's
// own converter: each route's body and answer, and the shapes they share (those with an id) as
// components.schemas, referred to by $ref.
import { z } from 'zod';
import { errorBody, ROUTE_SCHEMAS, ROUTES, type RouteKey, type RouteSchemas } from '@toolbelt/protocol';

export type JsonSchema = Record<string, unknown>;

export interface DocumentSchemas {
  /** By route key: its body's and its answer's schema, where it has them. */
  routes: Partial<Record<RouteKey, { body?: JsonSchema; answer?: JsonSchema }>>;
  /** The shapes routes share, by id (Error, the body of every refused request, among them). */
  components: Record<string, JsonSchema>;
}

const COMPONENT = '#/components/schemas/';

/** Converts every schema at once, so a shape used by several routes is one component. */
export function documentSchemas(): DocumentSchemas {
  const all: Record<string, z.ZodType> = { error: errorBody };
  for (const key of Object.keys(ROUTES) as RouteKey[]) {
    const s: RouteSchemas = ROUTE_SCHEMAS[key];
    if (s.body) all[`${key}.body`] = s.body;
    if (s.answer) all[`${key}.answer`] = s.answer;
  }
  // Input: a body as a client sends it (strict objects refuse unknown fields), an answer as it may
  // come (a field added later is not a break). The JSON text here is the whole tree, so the $defs
  // references are rewritten to the document's components in one go.
  const converted = z.toJSONSchema(z.object(all), { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' });
  const text = JSON.stringify(converted).replaceAll('"#/$defs/', `"${COMPONENT}`);
  const { properties, $defs = {} } = JSON.parse(text) as {
    properties: Record<string, JsonSchema>;
    $defs?: Record<string, JsonSchema>;
  };
  const routes: DocumentSchemas['routes'] = {};
  for (const [name, schema] of Object.entries(properties)) {
    const [key, part] = name.split('.') as [RouteKey, 'body' | 'answer'];
    if (part) (routes[key] ??= {})[part] = schema;
  }
  return { routes, components: $defs };
}
