// SearXNG, a self-hosted metasearch engine: GET <instance>/search?q=&format=json answers
// {results: [{title, url, content}]}. No key; the instance must have the json format enabled.
import type { HttpRetryOptions } from '@toolbelt/core/net';
import { plainText } from './brave.js';
import type { SearchProvider, SearchResult } from './provider.js';
import { searchFetch, searchJson, type SearchApi } from './request.js';

export interface SearxngOptions {
  /** The instance, e.g. http://127.0.0.1:8888 (a path prefix is kept). */
  baseUrl: string;
  timeoutMs?: number;
  retry?: HttpRetryOptions;
}

interface SearxngResponse {
  results?: { title?: string; url?: string; content?: string }[];
}

export class SearxngSearchProvider implements SearchProvider {
  readonly name = 'SearXNG';
  private readonly endpoint: string;
  private readonly api: SearchApi;
  private readonly fetch: typeof fetch;

  constructor(opts: SearxngOptions) {
    this.endpoint = new URL('search', opts.baseUrl.endsWith('/') ? opts.baseUrl : `${opts.baseUrl}/`).href;
    // A 403 from SearXNG means the instance does not serve JSON: there is no key.
    this.api = {
      service: 'SearXNG',
      refused: 'refused to answer in JSON',
      keyHint:
        'that the instance at web.searxngUrl (or SEARXNG_URL) lists "json" under search.formats in its settings.yml',
      ...opts,
    };
    this.fetch = searchFetch(this.api);
  }

  async search(query: string, count: number, signal: AbortSignal): Promise<SearchResult[]> {
    const url = `${this.endpoint}?${new URLSearchParams({ q: query, format: 'json' })}`;
    const body = await searchJson<SearxngResponse>(
      this.api,
      this.fetch,
      url,
      { headers: { Accept: 'application/json' } },
      signal,
    );
    return (body.results ?? [])
      .filter((r) => r.url)
      .slice(0, count)
      .map((r) => ({ title: plainText(r.title) || r.url!, url: r.url!, description: plainText(r.content) }));
  }
}
