// Google's OAuth 2.0 and API addresses (overridable, so tests and proxies can stand in) and the
// scopes the Gmail and Calendar tools need.

export interface GoogleEndpoints {
  /** Authorization endpoint the browser opens. */
  authUrl: string;
  /** Token endpoint: code exchange and refresh. */
  tokenUrl: string;
  /** Revocation endpoint (RFC 7009), for signing out. */
  revokeUrl: string;
  /** Gmail API v1 root (…/gmail/v1/users/me/… is appended). */
  gmailUrl: string;
  /** Calendar API v3 root (…/calendars/… is appended). */
  calendarUrl: string;
}

export const GOOGLE_ENDPOINTS: GoogleEndpoints = {
  authUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
  tokenUrl: 'https://oauth2.googleapis.com/token',
  revokeUrl: 'https://oauth2.googleapis.com/revoke',
  gmailUrl: 'https://gmail.googleapis.com/gmail/v1',
  calendarUrl: 'https://www.googleapis.com/calendar/v3',
};

/** Read mail, send mail, read and write calendar events: no more than the six tools use. */
export const GOOGLE_SCOPES = [
  'https://www.googleapis.com/auth/gmail.readonly',
  'https://www.googleapis.com/auth/gmail.send',
  'https://www.googleapis.com/auth/calendar.events',
];

export interface GoogleCredentials {
  clientId: string;
  clientSecret: string;
}

/** GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET, when both are set. */
export function googleCredentials(env: Record<string, string | undefined>): GoogleCredentials | undefined {
  const clientId = env.GOOGLE_CLIENT_ID?.trim();
  const clientSecret = env.GOOGLE_CLIENT_SECRET?.trim();
  return clientId && clientSecret ? { clientId, clientSecret } : undefined;
}

export const SIGN_IN_HINT = 'ask the user to run `toolbelt auth google` in the workspace to sign in';
