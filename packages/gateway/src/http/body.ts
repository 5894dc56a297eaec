// Reading a JSON body against a Zod schema, with errors a caller can act on.
import type { Context } from 'hono';
import type { z } from 'zod';
import { MAX_INPUT_DEPTH, shapeProblem } from '@toolbelt/core';
import { ApiError } from './errors.js';
import { header, readText } from './incoming.js';

function where(path: readonly PropertyKey[]): string {
  if (!path.length) return 'the body';
  return '`' + path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${String(p)}` : String(p))).join('') + '`';
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((i) => {
      if (i.code === 'unrecognized_keys')
        return `unknown field${i.keys.length > 1 ? 's' : ''} ${i.keys.map((k) => `\`${k}\``).join(', ')} in ${where(i.path)}`;
      if (i.code === 'invalid_type' && (i as { input?: unknown }).input === undefined)
        return `${where(i.path)} is required (${i.expected})`;
      return `${where(i.path)}: ${i.message}`;
    })
    .join('; ');
}

/** Parses the body (at most maxBytes) as JSON and validates it; an empty body counts as `{}`. */
export async function readBody<S extends z.ZodType>(c: Context, schema: S, maxBytes: number): Promise<z.output<S>> {
  const type = header(c, 'content-type');
  if (type && !/^application\/(.+\+)?json\b/i.test(type)) {
    throw new ApiError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `send the body as JSON with "Content-Type: application/json", not "${type}"`,
    );
  }
  const text = await readText(c, maxBytes);
  let value: unknown = {};
  if (text.trim()) {
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new ApiError(
        400,
        'INVALID_JSON',
        `the body is not valid JSON (${(err as Error).message}); send a JSON object`,
      );
    }
  }
  // Before anything recursive (the schema, the store's JSON.stringify) walks it. An input or a
  // result sits one level inside the body, so each may nest as deep as the executor allows.
  const tooDeep = shapeProblem(value, 'the body', { maxDepth: MAX_INPUT_DEPTH + 1, maxChars: Infinity });
  if (tooDeep) throw new ApiError(400, 'INVALID_PARAMS', tooDeep);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError(
      400,
      'BAD_REQUEST',
      `the body must be a JSON object, not ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}`,
    );
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new ApiError(400, 'BAD_REQUEST', `invalid request: ${describeIssues(parsed.error.issues)}`);
  return parsed.data;
}

/** A query parameter as a bounded positive integer, or the default. */
export function intParam(c: Context, name: string, def: number, max: number): number {
  const raw = c.req.query(name);
  if (raw === undefined || raw === '') return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0)
    throw new ApiError(400, 'BAD_REQUEST', `query parameter \`${name}\` must be a non-negative integer, not "${raw}"`);
  return Math.min(n, max);
}

/** A comma-separated list parameter (`?status=waiting,pending`). */
export function listParam(c: Context, name: string): string[] | undefined {
  const raw = c.req.queries(name);
  if (!raw?.length) return undefined;
  const out = raw
    .flatMap((r) => r.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  return out.length ? out : undefined;
}
