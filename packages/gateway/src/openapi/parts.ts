// Small builders for the OpenAPI document's repeated shapes: references, JSON bodies and answers,
// path and query parameters, and the answers every authenticated route can give.
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const json = (schema: unknown, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});
export const err = (description: string) => json(ref('Error'), description);
export const body = (schema: unknown) => ({ required: true, content: { 'application/json': { schema } } });
export const path = (name: string, description: string) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', maxLength: 200 },
});
export const query = (name: string, description: string, schema: unknown = { type: 'string' }) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});
export const auth = {
  '401': err('missing or unknown token'),
  '403': err(
    'the token lacks the role, or may not act for this agent; or the Host or Origin header is not allowed (every route)',
  ),
};
