// The Admin API's reports: registered only with ANTHROPIC_ADMIN_API_KEY (an sk-ant-admin… key).
import type { Tool } from '@toolbelt/core';
import type { HttpRetryOptions } from '@toolbelt/core/net';
import { ApiClient } from '../net/api.js';
import { anthropicUsageTool } from './anthropic_usage.js';

const ANTHROPIC_ADMIN_URL = 'https://api.anthropic.com/v1/organizations';

export interface AnthropicOptions {
  adminApiKey: string;
  /** Default https://api.anthropic.com/v1/organizations. */
  baseUrl?: string;
  retry?: HttpRetryOptions;
}

export function anthropicTools(opts: AnthropicOptions): Tool[] {
  const api = new ApiClient({
    service: 'the Anthropic Admin API',
    baseUrl: opts.baseUrl ?? ANTHROPIC_ADMIN_URL,
    headers: () => ({ 'x-api-key': opts.adminApiKey, 'anthropic-version': '2023-06-01' }),
    credentialHint: 'ask the user to check ANTHROPIC_ADMIN_API_KEY (an Admin key, sk-ant-admin…, from the Console)',
    ...(opts.retry ? { retry: opts.retry } : {}),
  });
  return [anthropicUsageTool(api)];
}
