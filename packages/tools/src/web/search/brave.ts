// Brave Web Search API: GET /res/v1/web/search?q=&count= with the X-Subscription-Token header.
import type { HttpRetryOptions } from '@toolbelt/core/net';
import type { SearchProvider, SearchResult } from './provider.js';
import { searchFetch, searchJson, type SearchApi } from './request.js';

const BRAVE_BASE_URL = 'https://api.search.brave.com';

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
  private readonly api: SearchApi;
  private readonly fetch: typeof fetch;

  constructor(private readonly opts: BraveOptions) {
    this.endpoint = new URL('/res/v1/web/search', opts.baseUrl ?? BRAVE_BASE_URL).href;
    this.api = { service: 'Brave Search', keyHint: 'web.braveApiKey or BRAVE_API_KEY', ...opts };
    this.fetch = searchFetch(this.api);
  }

  async search(query: string, count: number, signal: AbortSignal): Promise<SearchResult[]> {
    const url = `${this.endpoint}?${new URLSearchParams({ q: query, count: String(count) })}`;
    const headers = { Accept: 'application/json', 'Accept-Encoding': 'gzip', 'X-Subscription-Token': this.opts.apiKey };
    const body = await searchJson<BraveResponse>(this.api, this.fetch, url, { headers }, signal);
    return (body.web?.results ?? [])
      .filter((r) => r.url)
      .slice(0, count)
      .map((r) => ({ title: plainText(r.title) || r.url!, url: r.url!, description: plainText(r.description) }));
  }
}
