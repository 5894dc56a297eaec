// Retrying an HTTP request that failed for a passing reason: the connection dropped (reset), the
// server is rate limiting (429, honouring Retry-After) or briefly unable (408, 5xx). Never another
// 4xx: the same request would fail the same way. Shared by web_fetch, web_search and MCP over HTTP.
import { backoffDelay } from '../executor/attempt.js';

export interface HttpRetryOptions {
  /** Retries after the first attempt, 0-3. Default 3. */
  attempts?: number;
  /** First backoff; doubles each retry, with jitter. Default 500 ms. */
  baseDelayMs?: number;
  /** Longest Retry-After honoured; a server asking for longer is not retried. Default 30 s. */
  maxRetryAfterMs?: number;
}

export const HTTP_RETRY_DEFAULTS: Required<HttpRetryOptions> = {
  attempts: 3,
  baseDelayMs: 500,
  maxRetryAfterMs: 30_000,
};

/** Why one attempt is retried, and the least wait the server asked for. */
export interface RetryAdvice {
  reason: string;
  afterMs?: number;
}

/** 408, 429 and 5xx, except 501 (Not Implemented) and 505 (HTTP Version), which never pass. */
export function retryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599 && status !== 501 && status !== 505);
}

/** Retry-After (delta-seconds or an HTTP date) as milliseconds from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its weekday and month; Date.parse alone would read "-3" as a year.
  const date = /[a-z]{3}/i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

// node:http reports a dropped connection as ECONNRESET or EPIPE ("socket hang up" included);
// fetch (undici) wraps those, or its own UND_ERR_SOCKET ("other side closed"), in `cause`.
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/** True when the error (or its cause, a level or two down) is a connection that dropped. */
export function isConnectionReset(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && RESET_CODES.has(code)) return true;
  }
  return false;
}

export interface RetryLoop<T> {
  /** One request. */
  attempt(): Promise<T>;
  /** Advice to retry this outcome, or undefined to hand it back (a value) or throw it (an error). */
  judge(outcome: { value: T } | { error: unknown }): RetryAdvice | undefined;
  /** Releases a value that will be retried (an unread response body). */
  discard?(value: T): unknown;
  /** Told before each wait: which retry comes next, how long the wait is, and why. */
  onRetry?(retry: number, waitMs: number, reason: string): void;
  /** Ends a wait at once: the wait rejects with the signal's reason. */
  signal?: AbortSignal | null;
}

/** Runs `loop.attempt` until an outcome is not worth retrying or the retries are used up. */
export async function withHttpRetries<T>(loop: RetryLoop<T>, options: HttpRetryOptions = {}): Promise<T> {
  const o = { ...HTTP_RETRY_DEFAULTS, ...options };
  const attempts = Math.max(0, Math.min(3, o.attempts));
  for (let retry = 0; ; retry++) {
    let outcome: { value: T } | { error: unknown };
    try {
      outcome = { value: await loop.attempt() };
    } catch (error) {
      outcome = { error };
    }
    const advice = retry < attempts && !loop.signal?.aborted ? loop.judge(outcome) : undefined;
    // A server asking for a longer pause than we wait gets its answer handed back, not a retry.
    if (!advice || (advice.afterMs ?? 0) > o.maxRetryAfterMs) {
      if ('error' in outcome) throw outcome.error;
      return outcome.value;
    }
    if ('value' in outcome) await loop.discard?.(outcome.value);
    const waitMs = Math.max(backoffDelay(retry, o.baseDelayMs), advice.afterMs ?? 0);
    loop.onRetry?.(retry + 1, waitMs, advice.reason);
    await sleep(waitMs, loop.signal);
  }
}

/** Advice for a fetch outcome: a retryable status (with its Retry-After) or a dropped connection. */
export function adviseFetch(outcome: { value: Response } | { error: unknown }): RetryAdvice | undefined {
  if ('error' in outcome) return isConnectionReset(outcome.error) ? { reason: 'the connection was reset' } : undefined;
  const res = outcome.value;
  if (!retryableStatus(res.status)) return undefined;
  const afterMs = parseRetryAfter(res.headers.get('retry-after'));
  return { reason: `HTTP ${res.status}`, ...(afterMs !== undefined ? { afterMs } : {}) };
}

/** `fetchImpl` with retries; the request body must be re-sendable (a string or bytes, as JSON-RPC's is). */
export function retryingFetch(fetchImpl: typeof fetch, options: HttpRetryOptions = {}): typeof fetch {
  return (input, init) =>
    withHttpRetries<Response>(
      {
        attempt: () => fetchImpl(input, init),
        judge: adviseFetch,
        discard: (res) => res.body?.cancel().catch(() => undefined),
        signal: init?.signal ?? null,
      },
      options,
    );
}

/** A wait that keeps the process alive (a pending retry must settle) and ends early on abort. */
function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
