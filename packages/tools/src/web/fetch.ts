// GET with redirects followed by hand (at most maxRedirects), each hop through the SSRF guard,
// the whole exchange under one deadline.
import { ToolError } from '@toolbelt/core';
import {
  isConnectionReset,
  parseRetryAfter,
  retryableStatus,
  withHttpRetries,
  type HttpRetryOptions,
  type RetryAdvice,
} from '@toolbelt/core/net';
import { getOnce, isRedirect, type RawResponse } from './http.js';
import type { HostPolicy } from './ssrf.js';

export interface FetchOptions {
  hosts: HostPolicy;
  signal: AbortSignal;
  userAgent: string;
  maxBytes: number;
  maxRedirects: number;
  timeoutMs: number;
  /** Each request (each redirect hop) is retried on a reset, 408, 429 and 5xx; default 3 times. */
  retry?: HttpRetryOptions;
  onRetry?(retry: number, waitMs: number, reason: string): void;
}

export interface Fetched extends RawResponse {
  redirects: URL[];
  /** Requests sent, retries included. */
  requests: number;
}

function adviseGet(outcome: { value: RawResponse } | { error: unknown }): RetryAdvice | undefined {
  if ('error' in outcome) return isConnectionReset(outcome.error) ? { reason: 'the connection was reset' } : undefined;
  const r = outcome.value;
  if (!retryableStatus(r.status)) return undefined;
  const afterMs = parseRetryAfter(r.headers['retry-after']);
  return { reason: `HTTP ${r.status}`, ...(afterMs !== undefined ? { afterMs } : {}) };
}

export async function fetchFollowing(start: URL, opts: FetchOptions): Promise<Fetched> {
  const controller = new AbortController();
  const timer = setTimeout(
    () =>
      controller.abort(
        new ToolError(
          'TIMEOUT',
          `${start.host} sent no complete response within ${+(opts.timeoutMs / 1000).toFixed(1)} s`,
          { recoverable: true },
        ),
      ),
    opts.timeoutMs,
  );
  const onAbort = () => controller.abort(new ToolError('ABORTED', 'the fetch was cancelled'));
  if (opts.signal.aborted) onAbort();
  else opts.signal.addEventListener('abort', onAbort, { once: true });
  const headers = {
    'User-Agent': opts.userAgent,
    Accept: 'text/html,application/xhtml+xml,application/json;q=0.9,text/plain;q=0.9,*/*;q=0.5',
    'Accept-Encoding': 'gzip, deflate, br',
    'Accept-Language': 'en;q=1.0, *;q=0.5',
  };
  try {
    const redirects: URL[] = [];
    let url = start;
    let requests = 0;
    for (;;) {
      const hop = url;
      const res = await withHttpRetries<RawResponse>(
        {
          attempt: () => (
            requests++,
            getOnce(hop, { hosts: opts.hosts, signal: controller.signal, headers, maxBytes: opts.maxBytes })
          ),
          judge: adviseGet,
          signal: controller.signal,
          ...(opts.onRetry ? { onRetry: opts.onRetry } : {}),
        },
        opts.retry,
      );
      if (!isRedirect(res)) return { ...res, redirects, requests };
      const next = new URL(String(res.headers.location), url);
      if (redirects.length >= opts.maxRedirects) {
        throw new ToolError(
          'EXECUTION_FAILED',
          `too many redirects: more than ${opts.maxRedirects}, the last from ${url.href} to ${next.href}. Fetch the final URL directly if you know it.`,
        );
      }
      redirects.push(next);
      url = next;
    }
  } finally {
    clearTimeout(timer);
    opts.signal.removeEventListener('abort', onAbort);
  }
}

/** The body as text, in the charset the headers (or an HTML meta tag) name; UTF-8 otherwise. */
export function decodeBody(body: Buffer, contentType: string): string {
  let charset = /charset\s*=\s*"?([\w-]+)/i.exec(contentType)?.[1];
  if (!charset && /html/i.test(contentType))
    charset = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(body.subarray(0, 4096).toString('latin1'))?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}
