// Tavily Search API: POST /search with {query, max_results} and an `Authorization: Bearer` key;
// answers {results: [{title, url, content, score}]}, best first.
import type { HttpRetryOptions } from '@toolbelt/core/net';
import { plainText } from './brave.js';
import type { SearchProvider, SearchResult } from './provider.js';
import { searchFetch, searchJson, type SearchApi } from './request.js';

const TAVILY_BASE_URL = 'https://api.tavily.com';

export interface TavilyOptions {
  apiKey: string;
  /** Default https://api.tavily.com; tests point it at a local server. */
  baseUrl?: string;
  timeoutMs?: number;
  retry?: HttpRetryOptions;
}

interface TavilyResponse {
  results?: { title?: string; url?: string; content?: string }[];
}

// Tavily's content is a page extract, often several paragraphs; a snippet is enough for a list.
const SNIPPET = 300;

export class TavilySearchProvider implements SearchProvider {
  readonly name = 'Tavily';
  private readonly endpoint: string;
  private readonly api: SearchApi;
  private readonly fetch: typeof fetch;

  constructor(private readonly opts: TavilyOptions) {
    this.endpoint = new URL('/search', opts.baseUrl ?? TAVILY_BASE_URL).href;
    this.api = { service: 'Tavily', keyHint: 'web.tavilyApiKey or TAVILY_API_KEY', ...opts };
    this.fetch = searchFetch(this.api);
  }

  async search(query: string, count: number, signal: AbortSignal): Promise<SearchResult[]> {
    const init = {
      method: 'POST',
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        Authorization: `Bearer ${this.opts.apiKey}`,
      },
      body: JSON.stringify({ query, max_results: count, search_depth: 'basic' }),
    };
    const body = await searchJson<TavilyResponse>(this.api, this.fetch, this.endpoint, init, signal);
    return (body.results ?? [])
      .filter((r) => r.url)
      .slice(0, count)
      .map((r) => {
        const text = plainText(r.content);
        return {
          title: plainText(r.title) || r.url!,
          url: r.url!,
          description: text.length > SNIPPET ? `${text.slice(0, SNIPPET - 1)}…` : text,
        };
      });
  }
}
