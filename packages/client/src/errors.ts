// A refused request: the HTTP status and the gateway's code and message.
import { isConnectionFailure, unreachableMessage } from '@toolbelt/core/net';
import type { ApiErrorBody } from '@toolbelt/protocol';

export class GatewayError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'GatewayError';
  }

  static async from(res: Response): Promise<GatewayError> {
    const text = await res.text().catch(() => '');
    try {
      const body = JSON.parse(text) as { error?: Partial<ApiErrorBody['error']> };
      if (body.error?.message) return new GatewayError(res.status, body.error.code ?? 'UNKNOWN', body.error.message);
    } catch {
      // Not our JSON: a proxy or another server answered.
    }
    return new GatewayError(res.status, 'HTTP_ERROR', `HTTP ${res.status}${text ? `: ${text.slice(0, 300)}` : ''}`);
  }
}

/** Statuses worth retrying a connection for; the rest will not change by trying again. */
export function isRetryable(err: unknown): boolean {
  if (!(err instanceof GatewayError)) return true;
  return err.status === 408 || err.status === 429 || err.status >= 500;
}

/** The gateway could not be reached at all (refused, unresolved, timed out): no HTTP answer. */
export class GatewayUnreachableError extends Error {
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(unreachableMessage('the gateway', url, cause), { cause });
    this.name = 'GatewayUnreachableError';
  }
}

/** `fetch` whose failure to connect names the gateway's URL and the cause, not a bare "fetch failed". */
export function reachingFetch(url: string, inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    try {
      return await inner(input, init);
    } catch (err) {
      if (init?.signal?.aborted || !isConnectionFailure(err)) throw err;
      throw new GatewayUnreachableError(url, err);
    }
  };
}
