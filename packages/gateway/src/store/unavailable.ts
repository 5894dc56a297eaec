// A database that cannot be reached, told apart from a query that is wrong. Its own module, free of
// the driver, so the HTTP layer can answer 503 without loading PostgreSQL's client.
/** A database failure, said so a person knows what to check. */
export class StoreUnavailableError extends Error {
  constructor(cause: unknown) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(`the gateway database is unavailable (${why}); the gateway retries by itself, try again shortly`, { cause });
    this.name = 'StoreUnavailableError';
  }
}

const LOST = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P02', '57P03', '08000', '08003', '08006']);

/** True when the error says the database could not be reached, rather than that a query was wrong. */
export function isConnectionError(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  if (e?.code && LOST.has(e.code)) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error/i.test(e?.message ?? '');
}
