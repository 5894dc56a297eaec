// Naming a shape: a schema with an id is one entry of the OpenAPI document's components.schemas,
// referred to from every route that uses it.
import type { z } from 'zod';

export function named<S extends z.ZodType>(id: string, schema: S, description?: string): S {
  return schema.meta(description ? { id, description } : { id });
}
