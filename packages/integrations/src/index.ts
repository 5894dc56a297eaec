// Tools for services beyond the workspace, registered as their credentials allow: LinkedIn always,
// Gmail and Calendar with Google OAuth client credentials, anthropic_usage with an Admin API key.
// A missing credential leaves its tools out and says, in `status`, what would turn them on.
import { existsSync } from 'node:fs';
import type { Tool } from '@toolbelt/core';
import { anthropicTools } from './anthropic/index.js';
import { googleCredentials } from './google/endpoints.js';
import { googleTools } from './google/index.js';
import { TokenStore } from './google/tokens.js';
import { linkedinTools } from './linkedin/index.js';
import type { IntegrationsConfig } from './section.js';
import { localTimeZone } from './text/time.js';

export interface IntegrationsOptions {
  /** The environment the credentials come from (the CLI's: process env over the workspace .env). */
  env: Record<string, string | undefined>;
  /** Where Google tokens are kept: <root>/.toolbelt. */
  stateDir: string;
  config?: IntegrationsConfig;
}

export interface IntegrationStatus {
  name: 'linkedin' | 'google' | 'anthropic';
  tools: string[];
  on: boolean;
  /** Off: what turns it on. On: anything the user still has to do. */
  note?: string;
}

export const INTEGRATION_TOOLS = {
  linkedin: ['linkedin_jobs', 'linkedin_job_detail'],
  google: [
    'gmail_search',
    'gmail_read',
    'gmail_send',
    'calendar_list_events',
    'calendar_create_event',
    'calendar_get_event',
  ],
  anthropic: ['anthropic_usage'],
} as const;

const ENV_HINT = '(environment or the workspace .env)';

/** Which integrations are on with these credentials, and what turns on the others. */
export function integrationStatus(env: Record<string, string | undefined>, stateDir: string): IntegrationStatus[] {
  const google = googleCredentials(env);
  const signedIn = google && existsSync(TokenStore.in(stateDir).path);
  const admin = Boolean(env.ANTHROPIC_ADMIN_API_KEY?.trim());
  return [
    { name: 'linkedin', tools: [...INTEGRATION_TOOLS.linkedin], on: true },
    {
      name: 'google',
      tools: [...INTEGRATION_TOOLS.google],
      on: Boolean(google),
      ...(google
        ? signedIn
          ? {}
          : { note: 'not signed in: run `toolbelt auth google`' }
        : { note: `set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET ${ENV_HINT}` }),
    },
    {
      name: 'anthropic',
      tools: [...INTEGRATION_TOOLS.anthropic],
      on: admin,
      ...(admin ? {} : { note: `set ANTHROPIC_ADMIN_API_KEY ${ENV_HINT}` }),
    },
  ];
}

export function integrationTools(opts: IntegrationsOptions): { tools: Tool[]; status: IntegrationStatus[] } {
  const config = opts.config ?? {};
  const retry = config.retry ? { retry: config.retry } : {};
  const tools: Tool[] = linkedinTools({
    ...(config.linkedinBaseUrl ? { baseUrl: config.linkedinBaseUrl } : {}),
    ...retry,
  });
  const credentials = googleCredentials(opts.env);
  if (credentials) {
    const endpoints = config.google ? { endpoints: config.google } : {};
    tools.push(
      ...googleTools({
        credentials,
        stateDir: opts.stateDir,
        timeZone: config.timeZone ?? localTimeZone(),
        ...endpoints,
        ...retry,
      }),
    );
  }
  const adminKey = opts.env.ANTHROPIC_ADMIN_API_KEY?.trim();
  if (adminKey)
    tools.push(
      ...anthropicTools({
        adminApiKey: adminKey,
        ...(config.anthropicBaseUrl ? { baseUrl: config.anthropicBaseUrl } : {}),
        ...retry,
      }),
    );
  return { tools, status: integrationStatus(opts.env, opts.stateDir) };
}

export { integrationsSection, integrationsConfigShape, type IntegrationsConfig } from './section.js';
export { linkedinTools, type LinkedInOptions } from './linkedin/index.js';
export { googleTools, type GoogleToolsOptions } from './google/index.js';
export { anthropicTools, type AnthropicOptions } from './anthropic/index.js';
export {
  GOOGLE_ENDPOINTS,
  GOOGLE_SCOPES,
  googleCredentials,
  type GoogleCredentials,
  type GoogleEndpoints,
} from './google/endpoints.js';
export { signIn, SignInError, pkcePair, type SignInOptions } from './google/sign-in.js';
export { signOut, type SignOutResult } from './google/sign-out.js';
export { TokenStore, TOKEN_FILE, type StoredTokens } from './google/tokens.js';
export { GoogleSession } from './google/session.js';
export { ApiClient, type ApiOptions, type ApiRequest } from './net/api.js';
