// The `web` section of toolbelt.config.json: what web_fetch may reach and web_search's provider and keys.
import { z } from 'zod';
import { httpRetrySchema, mustBe, stringList } from '@toolbelt/core';

const SEARCH_PROVIDERS = ['brave', 'tavily', 'searxng'] as const;

export const webSection = z
  .strictObject({
    allowHosts: stringList('a list of host names').describe('Private or local hosts web_fetch may fetch').optional(),
    braveApiKey: z
      .string(mustBe('a Brave Search API key'))
      .describe('Registers web_search; BRAVE_API_KEY in the environment (or the workspace .env) does too')
      .optional(),
    braveBaseUrl: z.url(mustBe('a URL')).optional(),
    tavilyApiKey: z
      .string(mustBe('a Tavily API key'))
      .describe(
        'Registers web_search through Tavily; TAVILY_API_KEY in the environment (or the workspace .env) does too',
      )
      .optional(),
    tavilyBaseUrl: z.url(mustBe('a URL')).optional(),
    searxngUrl: z
      .url(mustBe('a URL'))
      .describe('A SearXNG instance with the json format on; registers web_search without a key; SEARXNG_URL does too')
      .optional(),
    searchProvider: z
      .enum(SEARCH_PROVIDERS, mustBe(`one of ${SEARCH_PROVIDERS.join(', ')}`))
      .describe('Which search API web_search uses when several are set up; default: Brave, then Tavily, then SearXNG')
      .optional(),
    userAgent: z.string().optional(),
    retry: httpRetrySchema
      .describe('Retries of a request that failed for a passing reason (reset, 408, 429, 5xx); default 3')
      .optional(),
  })
  .describe('web_fetch and web_search');

export type WebConfig = z.infer<typeof webSection>;
