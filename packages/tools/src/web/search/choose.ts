// Which search API web_search uses: the configured one, else the first that is set up (Brave,
// Tavily, then a SearXNG instance). No key, no web_search; `searchStatus` says what would turn it on.
import type { HttpRetryOptions } from '@toolbelt/core/net';
import type { WebConfig } from '../section.js';
import { BraveSearchProvider } from './brave.js';
import type { SearchProvider } from './provider.js';
import { SearxngSearchProvider } from './searxng.js';
import { TavilySearchProvider } from './tavily.js';

type Env = Record<string, string | undefined>;

function isHttpUrl(text: string): boolean {
  try {
    return /^https?:$/.test(new URL(text).protocol);
  } catch {
    return false;
  }
}

// What sets each provider up: a key, or for SearXNG the instance's address.
const KEYS = {
  brave: (c: WebConfig, env: Env) => c.braveApiKey || env.BRAVE_API_KEY,
  tavily: (c: WebConfig, env: Env) => c.tavilyApiKey || env.TAVILY_API_KEY,
  searxng: (c: WebConfig, env: Env) => {
    const url = c.searxngUrl || env.SEARXNG_URL;
    return url && isHttpUrl(url) ? url : undefined;
  },
} as const;

/** What sets each provider's key, for `toolbelt tools`. */
export const SEARCH_KEY_HINT =
  'set BRAVE_API_KEY or TAVILY_API_KEY, or SEARXNG_URL for a SearXNG instance (environment or the workspace .env), or web.braveApiKey / web.tavilyApiKey / web.searxngUrl';

export function chooseSearchProvider(config: WebConfig, env: Env): SearchProvider | undefined {
  const order = config.searchProvider ? [config.searchProvider] : (['brave', 'tavily', 'searxng'] as const);
  const name = order.find((p) => KEYS[p](config, env));
  if (!name) return undefined;
  const apiKey = KEYS[name](config, env)!.trim();
  const retry: { retry?: HttpRetryOptions } = config.retry ? { retry: config.retry } : {};
  if (name === 'brave')
    return new BraveSearchProvider({
      apiKey,
      ...(config.braveBaseUrl ? { baseUrl: config.braveBaseUrl } : {}),
      ...retry,
    });
  if (name === 'tavily')
    return new TavilySearchProvider({
      apiKey,
      ...(config.tavilyBaseUrl ? { baseUrl: config.tavilyBaseUrl } : {}),
      ...retry,
    });
  return new SearxngSearchProvider({ baseUrl: apiKey, ...retry });
}

/** Why web_search is off, or undefined when it is on. */
export function searchOffReason(config: WebConfig, env: Env): string | undefined {
  if (chooseSearchProvider(config, env)) return undefined;
  const url = config.searxngUrl || env.SEARXNG_URL;
  if (url && !config.searxngUrl) return `SEARXNG_URL "${url.slice(0, 80)}" is not an http(s) URL`;
  if (config.searchProvider) return `web.searchProvider is "${config.searchProvider}" and it is not set up`;
  return 'no search provider set up';
}
