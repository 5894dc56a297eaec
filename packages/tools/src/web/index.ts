// The web family: web_fetch always; web_search only when a search provider (Brave, Tavily, SearXNG) is set up.
import type { Tool } from '@toolbelt/core';
import { chooseSearchProvider } from './search/choose.js';
import type { SearchProvider } from './search/provider.js';
import { HostPolicy } from './ssrf.js';
import { webFetchTool } from './web_fetch.js';
import { webSearchTool } from './web_search.js';
import type { WebConfig } from './section.js';

export { webSection, type WebConfig } from './section.js';

export interface WebOptions {
  /** The `web` section of toolbelt.config.json (typed; webSection checks one that is not). */
  config?: WebConfig;
  /** For BRAVE_API_KEY, TAVILY_API_KEY and SEARXNG_URL. */
  env?: Record<string, string | undefined>;
  /** A search backend of your own instead of Brave or Tavily; registers web_search without a key. */
  searchProvider?: SearchProvider;
  /** Defaults: 30 s, 2 MB, 5 redirects. */
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
}

// Some sites turn away clients that do not look like a browser.
const DEFAULT_USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

export function webTools(opts: WebOptions = {}): Tool[] {
  const config = opts.config ?? {};
  const tools = [
    webFetchTool({
      hosts: new HostPolicy(config.allowHosts ?? []),
      userAgent: config.userAgent ?? DEFAULT_USER_AGENT,
      timeoutMs: opts.timeoutMs ?? 30_000,
      maxBytes: opts.maxBytes ?? 2 * 1024 * 1024,
      maxRedirects: opts.maxRedirects ?? 5,
      ...(config.retry ? { retry: config.retry } : {}),
    }),
  ];
  const provider = opts.searchProvider ?? chooseSearchProvider(config, opts.env ?? process.env);
  if (provider) tools.push(webSearchTool(provider));
  return tools;
}

export { BraveSearchProvider, plainText } from './search/brave.js';
export { TavilySearchProvider } from './search/tavily.js';
export { SearxngSearchProvider } from './search/searxng.js';
export { chooseSearchProvider, searchOffReason, SEARCH_KEY_HINT } from './search/choose.js';
export type { SearchProvider, SearchResult } from './search/provider.js';
export { blockedAddress, HostPolicy } from './ssrf.js';
export { webFetchTool, webSearchTool };
