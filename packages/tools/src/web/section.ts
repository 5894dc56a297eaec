// The `web` section of toolbelt.config.json: what web_fetch may reach and web_search's key.
import { z } from 'zod';
import { httpRetrySchema, mustBe, stringList } from '@toolbelt/core';

export const webSection = z
  .strictObject({
    allowHosts: stringList('a list of host names').describe('Private or local hosts web_fetch may fetch').optional(),
    braveApiKey: z
      .string(mustBe('a Brave Search API key'))
      .describe('Registers web_search; BRAVE_API_KEY in the environment (or the workspace .env) does too')
      .optional(),
    braveBaseUrl: z.url(mustBe('a URL')).optional(),
    userAgent: z.string().optional(),
    retry: httpRetrySchema.describe('Retries of a request that failed for a passing reason (reset, 408, 429, 5xx); default 3').optional(),
  })
  .describe('web_fetch and web_search');

export type WebConfig = z.infer<typeof webSection>;
