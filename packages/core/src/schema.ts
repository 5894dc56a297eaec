// Input schemas: a Zod schema (converted with z.toJSONSchema) or a plain JSON Schema (checked by Ajv).
// Either way validation yields the input with defaults applied, or every problem at once in words a
// model can act on; a parameter the schema does not name is one of them (params.ts).
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { z } from 'zod';
import { closedParams, publishedSchema, unknownParams } from './params.js';

export type JsonSchema = Record<string, unknown>;
export type InputSchema<I> = z.ZodType<I> | JsonSchema;

export type Validation<I> = { ok: true; value: I } | { ok: false; message: string };

export interface CompiledSchema<I> {
  jsonSchema: JsonSchema;
  parse(raw: unknown): Validation<I>;
}

export function isZodSchema(schema: unknown): schema is z.ZodType {
  return (
    typeof schema === 'object' &&
    schema !== null &&
    '_zod' in schema &&
    typeof (schema as z.ZodType).safeParse === 'function'
  );
}

/**
 * Why a schema cannot be used, when it is a Zod 3 schema (it has `_def` but not Zod 4's `_zod`).
 * Read as JSON Schema it would fail with Ajv's words about "nullable", which say nothing useful.
 */
export function zod3Problem(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null || !('_def' in schema) || '_zod' in schema) return undefined;
  return 'is a Zod 3 schema, and toolbelt needs Zod 4: install zod@^4 and import { z } from "zod" (on zod 3.25, import { z } from "zod/v4")';
}

let ajv: Ajv | undefined;
function sharedAjv(): Ajv {
  // strict: false so schemas from MCP servers and configs with extra keywords still compile.
  // `format` stays an annotation (as JSON Schema 2019+ has it), so no warning is printed to stderr
  // for formats like "uri" — stderr is the MCP client's log, not ours to fill.
  ajv ??= new Ajv({
    allErrors: true,
    useDefaults: true,
    strict: false,
    coerceTypes: false,
    validateFormats: false,
    logger: false,
  });
  return ajv;
}

export function compileSchema<I>(schema: InputSchema<I>): CompiledSchema<I> {
  const zod3 = zod3Problem(schema);
  if (zod3) throw new Error(`this schema ${zod3}`);
  if (isZodSchema(schema)) return compileZod(schema as z.ZodType<I>);
  return compileJsonSchema<I>(schema as JsonSchema);
}

function compileZod<I>(schema: z.ZodType<I>): CompiledSchema<I> {
  const converted = withoutNoise(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' })) as JsonSchema;
  delete converted.$schema;
  const closed = closedParams(converted);
  return {
    jsonSchema: publishedSchema(converted, closed),
    parse(raw) {
      const value = raw === undefined ? {} : raw;
      const unknown = unknownParams(value, closed);
      const parsed = schema.safeParse(value);
      if (parsed.success) return unknown ? { ok: false, message: unknown } : { ok: true, value: parsed.data };
      // reportInput costs ~1 µs per parse, so only the failing path pays for it.
      const detailed = schema.safeParse(value, { reportInput: true });
      // A strict object's own complaint about extra keys would say the same again.
      const issues = (detailed.error ?? parsed.error).issues.filter(
        (i) => !(unknown && i.code === 'unrecognized_keys' && i.path.length === 0),
      );
      return { ok: false, message: [...issues.map(describeZodIssue), ...(unknown ? [unknown] : [])].join('; ') };
    },
  };
}

/**
 * Schema words that say nothing a model can use, paid for in tokens on every turn: Zod's `.int()`
 * publishes `minimum`/`maximum` at ±Number.MAX_SAFE_INTEGER; a count, line or limit that starts at
 * 0 or 1, a string that may not be empty, a list of at least one, is what a model sends anyway; and
 * a boolean's `default: false` is what the server's instructions say of every omitted boolean.
 * Validation still enforces all of them (Zod parses) and still applies the default.
 */
export function withoutNoise(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutNoise);
  if (typeof node !== 'object' || node === null) return node;
  const type = (node as { type?: unknown }).type;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (
      key === 'minimum' &&
      (value === Number.MIN_SAFE_INTEGER || (type === 'integer' && (value === 0 || value === 1)))
    )
      continue;
    if (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    if ((key === 'minLength' || key === 'minItems') && value === 1) continue;
    if (key === 'default' && value === false && type === 'boolean') continue;
    out[key] = withoutNoise(value);
  }
  return out;
}

function compileJsonSchema<I>(schema: JsonSchema): CompiledSchema<I> {
  const own = { ...schema };
  delete own.$schema;
  let validate: ValidateFunction;
  try {
    validate = sharedAjv().compile(own);
  } catch (err) {
    throw new Error(`invalid JSON Schema: ${(err as Error).message}`, { cause: err });
  }
  const closed = closedParams(own);
  return {
    jsonSchema: publishedSchema(own, closed),
    parse(raw) {
      // Ajv applies defaults in place: work on a copy so the caller's object is untouched.
      const value = raw === undefined ? {} : structuredCloneJson(raw);
      const unknown = unknownParams(value, closed);
      if (validate(value) && !unknown) return { ok: true, value: value as I };
      // Ajv's own complaint about extra top-level keys would say the same again.
      const errors = (validate.errors ?? []).filter(
        (e) => !(unknown && e.keyword === 'additionalProperties' && e.instancePath === ''),
      );
      return {
        ok: false,
        message: [...(errors.length ? [describeAjvErrors(errors, value)] : []), ...(unknown ? [unknown] : [])].join(
          '; ',
        ),
      };
    },
  };
}

function structuredCloneJson(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}

/** `a.b[2]` style, or "input" at the top. */
function fieldName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'input';
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out ? `.${String(key)}` : String(key);
  return `\`${out}\``;
}

export function showValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function describeZodIssue(issue: z.core.$ZodIssue): string {
  const field = fieldName(issue.path);
  const got = 'input' in issue ? `; got ${showValue(issue.input)}` : '';
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `${field} is required (${issue.expected})`;
      return `${field} must be ${article(issue.expected)}${got}`;
    case 'too_small': {
      const op = issue.inclusive === false ? '>' : '>=';
      const what =
        issue.origin === 'string'
          ? `at least ${issue.minimum} characters`
          : issue.origin === 'array'
            ? `at least ${issue.minimum} items`
            : `${op} ${issue.minimum}`;
      return `${field} must be ${what}${got}`;
    }
    case 'too_big': {
      const op = issue.inclusive === false ? '<' : '<=';
      const what =
        issue.origin === 'string'
          ? `at most ${issue.maximum} characters`
          : issue.origin === 'array'
            ? `at most ${issue.maximum} items`
            : `${op} ${issue.maximum}`;
      return `${field} must be ${what}${got}`;
    }
    case 'invalid_value':
      return `${field} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}${got}`;
    case 'unrecognized_keys':
      return `unknown parameter${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `\`${k}\``).join(', ')} in ${field}`;
    case 'invalid_format':
      // A pattern is no format to name ("must be a valid regex" reads as if the field were one): say its message.
      if (issue.format === 'regex') return `${field}: ${issue.message}${got}`;
      return `${field} must be a valid ${issue.format}${got}`;
    default:
      return `${field}: ${issue.message}${got}`;
  }
}

function article(type: string): string {
  if (type === 'int') return 'an integer';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function valueAt(root: unknown, pointer: string): unknown {
  if (!pointer) return root;
  let cur: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

function pointerPath(pointer: string): (string | number)[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}

function describeAjvErrors(errors: ErrorObject[], root: unknown): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const e of errors) {
    const path = pointerPath(e.instancePath);
    let line: string;
    if (e.keyword === 'required') {
      line = `${fieldName([...path, (e.params as { missingProperty: string }).missingProperty])} is required`;
    } else if (e.keyword === 'additionalProperties') {
      line = `unknown parameter \`${(e.params as { additionalProperty: string }).additionalProperty}\` in ${fieldName(path)}`;
    } else if (e.keyword === 'enum') {
      const allowed = (e.params as { allowedValues: unknown[] }).allowedValues;
      line = `${fieldName(path)} must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}; got ${showValue(valueAt(root, e.instancePath))}`;
    } else if (e.keyword === 'type') {
      const type = String((e.params as { type: string }).type);
      line = `${fieldName(path)} must be ${article(type)}; got ${showValue(valueAt(root, e.instancePath))}`;
    } else {
      line = `${fieldName(path)} ${e.message ?? 'is invalid'}; got ${showValue(valueAt(root, e.instancePath))}`;
    }
    if (!seen.has(line)) {
      seen.add(line);
      lines.push(line);
    }
  }
  return lines.join('; ');
}
