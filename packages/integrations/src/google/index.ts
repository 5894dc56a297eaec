// The Gmail and Calendar tools over one signed-in Google account.
import type { Tool } from '@toolbelt/core';
import type { HttpRetryOptions } from '@toolbelt/core/net';
import { calendarCreateEventTool } from '../calendar/calendar_create_event.js';
import { calendarGetEventTool } from '../calendar/calendar_get_event.js';
import { calendarListEventsTool } from '../calendar/calendar_list_events.js';
import { gmailReadTool } from '../gmail/gmail_read.js';
import { gmailSearchTool } from '../gmail/gmail_search.js';
import { gmailSendTool } from '../gmail/gmail_send.js';
import { GOOGLE_ENDPOINTS, type GoogleCredentials, type GoogleEndpoints } from './endpoints.js';
import { GoogleSession } from './session.js';
import { TokenStore } from './tokens.js';

export interface GoogleToolsOptions {
  credentials: GoogleCredentials;
  /** Where google-tokens.json is kept (the runtime's <root>/.toolbelt). */
  stateDir: string;
  timeZone: string;
  endpoints?: Partial<GoogleEndpoints>;
  retry?: HttpRetryOptions;
}

export function googleTools(opts: GoogleToolsOptions): Tool[] {
  const endpoints = { ...GOOGLE_ENDPOINTS, ...opts.endpoints };
  const session = new GoogleSession({
    credentials: opts.credentials,
    store: TokenStore.in(opts.stateDir),
    tokenUrl: endpoints.tokenUrl,
    ...(opts.retry ? { retry: opts.retry } : {}),
  });
  const gmail = session.client('Gmail', endpoints.gmailUrl);
  const calendar = session.client('Google Calendar', endpoints.calendarUrl);
  const zone = opts.timeZone;
  return [
    gmailSearchTool(gmail, zone),
    gmailReadTool(gmail, zone),
    gmailSendTool(gmail),
    calendarListEventsTool(calendar, zone),
    calendarCreateEventTool(calendar, zone),
    calendarGetEventTool(calendar, zone),
  ];
}
