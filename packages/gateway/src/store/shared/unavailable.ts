// A database that cannot be reached, told apart from a query that is wrong. Its own module, free of
// the driver, so the HTTP layer can answer 503 without loading PostgreSQL's client.
/** The start of every StoreUnavailableError's message: a tool's result that carries it failed on the database. */
export const UNAVAILABLE_TEXT = 'the gateway database is unavailable';

/** A database failure, said so a person knows what to check. */
export class StoreUnavailableError extends Error {
  constructor(cause: unknown) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(`${UNAVAILABLE_TEXT} (${why}); the gateway retries by itself, try again shortly`, { cause });
    this.name = 'StoreUnavailableError';
  }
}

const LOST = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08003',
  '08006',
]);

/** True when the error says the database could not be reached, rather than that a query was wrong. */
export function isConnectionError(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  if (e?.code && LOST.has(e.code)) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error/i.test(
    e?.message ?? '',
  );
}

/**
 * `op`, or a StoreUnavailableError once `ms` have passed without an answer: a database that does not
 * answer (a black-holed connection) fails a call at the call's own deadline, not the driver's. The
 * operation itself is not cancelled; the driver's own timeout ends it.
 */
export function within<T>(op: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new StoreUnavailableError(new Error(`${what} got no answer within ${Math.max(0, Math.round(ms))} ms`))),
      Math.max(0, ms),
    );
  });
  op.catch(() => {}); // a late failure, once we stopped waiting, is nobody's
  return Promise.race([op, late]).finally(() => clearTimeout(timer));
}
