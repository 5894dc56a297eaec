// LinkedIn's public job pages need no account; they turn away clients that do not look like a browser.
import type { HttpRetryOptions } from '@toolbelt/core/net';
import { ApiClient } from '../net/api.js';

const LINKEDIN_BASE_URL = 'https://www.linkedin.com';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

export interface LinkedInOptions {
  /** Default https://www.linkedin.com; tests point it at a local server. */
  baseUrl?: string;
  timeoutMs?: number;
  retry?: HttpRetryOptions;
}

export function linkedInClient(opts: LinkedInOptions = {}): ApiClient {
  return new ApiClient({
    service: 'LinkedIn',
    baseUrl: opts.baseUrl ?? LINKEDIN_BASE_URL,
    headers: () => ({ Accept: 'text/html', 'User-Agent': BROWSER, 'Accept-Language': 'en-US,en;q=0.9' }),
    credentialHint: 'LinkedIn turned the public job pages away; wait a few minutes and try again',
    ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
    ...(opts.retry ? { retry: opts.retry } : {}),
  });
}
