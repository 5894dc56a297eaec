// The `integrations` section of toolbelt.config.json. Credentials stay in the environment or the
// workspace .env (GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET, ANTHROPIC_ADMIN_API_KEY); the file holds
// only what is no secret: the time zone and other addresses for the services.
import { z } from 'zod';
import { httpRetrySchema, mustBe } from '@toolbelt/core';
import { isTimeZone } from './text/time.js';

const url = () => z.url(mustBe('a URL')).optional();

export const integrationsSection = z
  .strictObject({
    timeZone: z
      .string(mustBe('an IANA time zone name'))
      .refine(isTimeZone, { error: 'must be an IANA time zone name, such as Europe/Berlin or America/New_York' })
      .describe("The user's time zone for mail and calendar times; default: this machine's")
      .optional(),
    google: z
      .strictObject({ authUrl: url(), tokenUrl: url(), revokeUrl: url(), gmailUrl: url(), calendarUrl: url() })
      .describe("Google's OAuth and API addresses, for a proxy; default: Google's own")
      .optional(),
    anthropicBaseUrl: url().describe('The Admin API root; default https://api.anthropic.com/v1/organizations'),
    linkedinBaseUrl: url().describe('Default https://www.linkedin.com'),
    retry: httpRetrySchema
      .describe('Retries of a request that failed for a passing reason (reset, 408, 429, 5xx); default 3')
      .optional(),
  })
  .describe('Gmail, Calendar, LinkedIn jobs and Anthropic usage tools');

export type IntegrationsConfig = z.infer<typeof integrationsSection>;

export const integrationsConfigShape = { integrations: integrationsSection.optional() };
