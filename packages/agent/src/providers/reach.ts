// A model server that cannot be reached: the SDKs say "Connection error." and keep the URL and the
// system error (ECONNREFUSED, ENOTFOUND, a timeout) to themselves. This names both.
import { isConnectionFailure, unreachableMessage } from '@toolbelt/core/net';

export class ModelUnreachableError extends Error {
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(unreachableMessage('the model server', url, cause), { cause });
    this.name = 'ModelUnreachableError';
  }
}

/** Runs one model call; a failure to connect to `url` becomes a ModelUnreachableError. */
export async function reaching<T>(url: string, signal: AbortSignal | undefined, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (signal?.aborted || !isConnectionFailure(err)) throw err;
    throw new ModelUnreachableError(url, err);
  }
}
