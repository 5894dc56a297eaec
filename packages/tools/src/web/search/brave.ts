// Brave Web Search API: GET /res/v1/web/search?q=&count= with the X-Subscription-Token header.
import { retryingFetch, ToolError, type HttpRetryOptions } from '@toolbelt/core';
import type { SearchProvider, SearchResult } from './provider.js';

export const BRAVE_BASE_URL = 'https://api.search.brave.com';

export interface BraveOptions {
  apiKey: string;
  /** Default https://api.search.brave.com; tests point it at a local server. */
  baseUrl?: string;
  /** Per request; each retry gets its own. Default 30 s. */
  timeoutMs?: number;
  /** A reset, 408, 429 (after its Retry-After) and 5xx are retried; default 3 times. */
  retry?: HttpRetryOptions;
}

interface BraveResponse {
  web?: { results?: { title?: string; url?: string; description?: string }[] };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** Brave marks matches with <strong> and escapes entities; the model wants plain text. */
export function plainText(s: string | undefined): string {
  return (s ?? '')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) => {
      if (e[0] === '#') {
        const code = e[1].toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : m;
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

export class BraveSearchProvider implements SearchProvider {
  readonly name = 'Brave';
  private readonly endpoint: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly opts: BraveOptions) {
    this.endpoint = new URL('/res/v1/web/search', opts.baseUrl ?? BRAVE_BASE_URL).href;
    // Each attempt gets its own timeout; the tool's signal also ends the waits between them.
    const attempt: typeof fetch = (input, init) => {
      const timeout = AbortSignal.timeout(opts.timeoutMs ?? 30_000);
      return fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout });
    };
    this.fetch = retryingFetch(attempt, opts.retry);
  }

  async search(query: string, count: number, signal: AbortSignal): Promise<SearchResult[]> {
    const url = `${this.endpoint}?${new URLSearchParams({ q: query, count: String(count) })}`;
    const timeoutMs = this.opts.timeoutMs ?? 30_000;
    let res: Response;
    try {
      res = await this.fetch(url, {
        headers: { Accept: 'application/json', 'Accept-Encoding': 'gzip', 'X-Subscription-Token': this.opts.apiKey },
        signal,
      });
    } catch (err) {
      if (signal.aborted) throw new ToolError('ABORTED', 'the search was cancelled');
      if ((err as Error).name === 'TimeoutError')
        throw new ToolError('TIMEOUT', `Brave Search did not answer within ${Math.round(timeoutMs / 1000)} s; try again`, { recoverable: true });
      throw new ToolError('EXECUTION_FAILED', `could not reach Brave Search: ${(err as Error).message}`, { recoverable: true });
    }
    if (!res.ok) {
      const detail = (await res.text().catch(() => '')).slice(0, 200);
      if (res.status === 401 || res.status === 403) {
        throw new ToolError(
          'PERMISSION_DENIED',
          `Brave Search rejected the API key (HTTP ${res.status}); ask the user to check web.braveApiKey or BRAVE_API_KEY`,
        );
      }
      if (res.status === 429)
        throw new ToolError('EXECUTION_FAILED', 'Brave Search rate limit reached (HTTP 429); wait a moment and try again', { recoverable: true });
      throw new ToolError('EXECUTION_FAILED', `Brave Search failed (HTTP ${res.status})${detail ? `: ${detail}` : ''}`, { recoverable: res.status >= 500 });
    }
    let body: BraveResponse;
    try {
      body = (await res.json()) as BraveResponse;
    } catch {
      throw new ToolError('EXECUTION_FAILED', 'Brave Search answered with something that is not JSON', { recoverable: true });
    }
    return (body.web?.results ?? [])
      .filter((r) => r.url)
      .slice(0, count)
      .map((r) => ({ title: plainText(r.title) || r.url!, url: r.url!, description: plainText(r.description) }));
  }
}
