// API errors: one JSON shape, `{ error: { code, message } }`, with a message that says what was
// wrong and what to do.
import type { ApiErrorBody, ApiErrorCode } from '@toolbelt/protocol';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { StoreUnavailableError } from '../store/index.js';

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ApiErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The body exceeded the gateway's limit (413, and the connection is not reused). */
export class PayloadTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the request body is larger than ${limit} bytes`);
  }
}

export const errorBody = (code: ApiErrorCode, message: string): ApiErrorBody => ({ error: { code, message } });

export function handleError(err: Error, c: Context): Response {
  if (err instanceof ApiError) return c.json(errorBody(err.code, err.message), err.status);
  if (err instanceof PayloadTooLargeError) return tooLarge(c, err.limit);
  if (err instanceof StoreUnavailableError)
    return c.json(errorBody('UNAVAILABLE', err.message), 503, { 'retry-after': '1' });
  if (isSqliteError(err) || isPgError(err)) return storeFailed(c, err);
  if (err instanceof HTTPException && err.status === 413) return tooLarge(c);
  if (err instanceof HTTPException)
    return c.json(errorBody(err.status >= 500 ? 'INTERNAL' : 'BAD_REQUEST', err.message), err.status);
  console.error(`toolbelt gateway: ${c.req.method} ${c.req.path} failed:`, err);
  return c.json(
    errorBody(
      'INTERNAL',
      'the gateway failed on this request; it was logged on the server. Retry, and report it if it persists.',
    ),
    500,
  );
}

/** Any failure of the database: 503 with Retry-After, a value it refused (a data exception): 400. */
function storeFailed(c: Context, err: Error): Response {
  const code = String((err as { code?: unknown }).code ?? '');
  if (code.startsWith('22'))
    return c.json(errorBody('BAD_REQUEST', `the database refused a value in this request: ${err.message}`), 400);
  return c.json(errorBody('UNAVAILABLE', new StoreUnavailableError(err).message), 503, { 'retry-after': '1' });
}

/** pg's errors from the server: a severity and a five-character SQLSTATE. */
function isPgError(err: Error): boolean {
  const e = err as { severity?: unknown; code?: unknown };
  return typeof e.severity === 'string' && typeof e.code === 'string' && e.code.length === 5;
}

/** better-sqlite3's errors (busy, read-only, disk full, I/O): the database, not the request, failed. */
function isSqliteError(err: Error): boolean {
  return err.name === 'SqliteError' || /^SQLITE_/.test(String((err as { code?: unknown }).code ?? ''));
}

export function tooLarge(c: Context, limit?: number): Response {
  const size = limit ? ` (limit ${limit} bytes)` : '';
  // The unread rest of the body makes the connection unusable: tell the client not to reuse it.
  return c.json(
    errorBody(
      'PAYLOAD_TOO_LARGE',
      `the request body is too large${size}; send less, e.g. a path instead of file contents`,
    ),
    413,
    {
      connection: 'close',
    },
  );
}

export function notFoundRoute(c: Context): Response {
  return c.json(
    errorBody('NOT_FOUND', `no route ${c.req.method} ${c.req.path}; the API is described at /api/openapi.json`),
    404,
  );
}
