// One request to a search API and the one mapping of its failures to errors that say what to do;
// every provider (Brave, Tavily) uses it, so they fail alike.
import { ToolError } from '@toolbelt/core';
import { retryingFetch, type HttpRetryOptions } from '@toolbelt/core/net';

export interface SearchApi {
  /** Named in errors ("Brave Search"). */
  service: string;
  /** Where the key is set, for the message when it is refused ("web.braveApiKey or BRAVE_API_KEY"). */
  keyHint: string;
  /** What a 401/403 means, in words (default "rejected the API key"). */
  refused?: string;
  /** Per request; each retry gets its own. Default 30 s. */
  timeoutMs?: number;
  retry?: HttpRetryOptions;
}

/** A fetch whose attempts each get their own timeout, with core's retries (reset, 408, 429 after Retry-After, 5xx). */
export function searchFetch(api: SearchApi): typeof fetch {
  const attempt: typeof fetch = (input, init) => {
    const timeout = AbortSignal.timeout(api.timeoutMs ?? 30_000);
    return fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout });
  };
  return retryingFetch(attempt, api.retry);
}

/** Sends the request and returns its JSON body; throws a ToolError for the model on any failure. */
export async function searchJson<T>(
  api: SearchApi,
  doFetch: typeof fetch,
  url: string,
  init: RequestInit,
  signal: AbortSignal,
): Promise<T> {
  let res: Response;
  try {
    res = await doFetch(url, { ...init, signal });
  } catch (err) {
    if (signal.aborted) throw new ToolError('ABORTED', 'the search was cancelled');
    if ((err as Error).name === 'TimeoutError')
      throw new ToolError(
        'TIMEOUT',
        `${api.service} did not answer within ${Math.round((api.timeoutMs ?? 30_000) / 1000)} s; try again`,
        {
          recoverable: true,
        },
      );
    throw new ToolError('EXECUTION_FAILED', `could not reach ${api.service}: ${(err as Error).message}`, {
      recoverable: true,
    });
  }
  if (!res.ok) {
    const detail = (await res.text().catch(() => '')).slice(0, 200);
    if (res.status === 401 || res.status === 403)
      throw new ToolError(
        'PERMISSION_DENIED',
        `${api.service} ${api.refused ?? 'rejected the API key'} (HTTP ${res.status}); ask the user to check ${api.keyHint}`,
      );
    if (res.status === 429)
      throw new ToolError(
        'EXECUTION_FAILED',
        `${api.service} rate limit reached (HTTP 429); wait a moment and try again`,
        { recoverable: true },
      );
    throw new ToolError(
      'EXECUTION_FAILED',
      `${api.service} failed (HTTP ${res.status})${detail ? `: ${detail}` : ''}`,
      { recoverable: res.status >= 500 },
    );
  }
  try {
    return (await res.json()) as T;
  } catch {
    throw new ToolError('EXECUTION_FAILED', `${api.service} answered with something that is not JSON`, {
      recoverable: true,
    });
  }
}
