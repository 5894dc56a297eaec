// A parameter the schema does not name is refused, not dropped: a misspelled `head_limit` that is
// silently ignored runs a different call from the one the model meant. A schema that says it
// takes other keys (additionalProperties true or a schema, patternProperties) keeps taking them.
import { closestParameter } from './similar-names.js';
import type { JsonSchema } from './schema.js';

export interface ClosedParams {
  names: readonly string[];
  /** True when every name is a top-level property, so `additionalProperties: false` says it all. */
  topLevel: boolean;
}

const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether the object allows keys beyond its properties, as far as this one level can tell. */
function open(schema: JsonSchema): boolean {
  const extra = schema.additionalProperties;
  const unevaluated = schema.unevaluatedProperties;
  return (
    (extra !== undefined && extra !== false) ||
    (unevaluated !== undefined && unevaluated !== false) ||
    schema.patternProperties !== undefined ||
    schema.$ref !== undefined ||
    schema.$dynamicRef !== undefined ||
    schema.if !== undefined ||
    schema.dependentSchemas !== undefined
  );
}

/**
 * The parameters a tool's input schema names, when it takes no others; undefined when it takes
 * any key (a free-form object, additionalProperties allowed) or is too intricate to tell.
 */
export function closedParams(schema: JsonSchema): ClosedParams | undefined {
  if (open(schema)) return undefined;
  const names = new Set<string>(isObject(schema.properties) ? Object.keys(schema.properties) : []);
  let topLevel = true;
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (branches === undefined) continue;
    if (!Array.isArray(branches)) return undefined;
    for (const branch of branches) {
      if (!isObject(branch) || open(branch) || branch.allOf || branch.anyOf || branch.oneOf) return undefined;
      if (!isObject(branch.properties)) return undefined;
      for (const name of Object.keys(branch.properties)) names.add(name);
      topLevel = false;
    }
  }
  if (!isObject(schema.properties) && topLevel) return undefined;
  return { names: [...names], topLevel };
}

/** The schema as published: `additionalProperties: false` where extra keys are refused. */
export function publishedSchema(schema: JsonSchema, closed: ClosedParams | undefined): JsonSchema {
  if (!closed?.topLevel || schema.additionalProperties === false) return schema;
  return { ...schema, additionalProperties: false };
}

/** One line per key the schema does not name, with the likely meant one; undefined when none. */
export function unknownParams(raw: unknown, closed: ClosedParams | undefined): string | undefined {
  if (!closed || !isObject(raw)) return undefined;
  let lines: string[] | undefined;
  for (const key in raw) {
    if (!Object.hasOwn(raw, key) || closed.names.includes(key)) continue;
    const near = closestParameter(key, closed.names);
    (lines ??= []).push(`unknown parameter "${key}"${near ? `; did you mean "${near}"?` : ''}`);
  }
  if (!lines) return undefined;
  const valid = closed.names.length ? `valid parameters: ${closed.names.join(', ')}` : 'this tool takes no parameters';
  return `${lines.join('; ')} (${valid})`;
}
