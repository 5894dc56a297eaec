// The token endpoint (RFC 6749 §4.1.3 code exchange with the PKCE verifier, §6 refresh).
import { ToolError } from '@toolbelt/core';
import { type HttpRetryOptions } from '@toolbelt/core/net';
import { ApiClient } from '../net/api.js';
import type { GoogleCredentials } from './endpoints.js';
import { SIGN_IN_HINT } from './endpoints.js';
import type { TokenResponse } from './tokens.js';

function tokenClient(tokenUrl: string, retry?: HttpRetryOptions): { client: ApiClient; path: string } {
  const url = new URL(tokenUrl);
  return {
    client: new ApiClient({
      service: 'Google sign-in',
      baseUrl: url.origin,
      credentialHint: SIGN_IN_HINT,
      ...(retry ? { retry } : {}),
    }),
    path: url.pathname + url.search,
  };
}

export async function exchangeCode(
  tokenUrl: string,
  creds: GoogleCredentials,
  code: string,
  verifier: string,
  redirectUri: string,
  signal: AbortSignal,
): Promise<TokenResponse> {
  const { client, path } = tokenClient(tokenUrl);
  const form = {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: redirectUri,
    client_id: creds.clientId,
    client_secret: creds.clientSecret,
  };
  try {
    return checked(await client.json<TokenResponse>(path, { method: 'POST', form }, signal));
  } catch (err) {
    throw clientRefused(err) ?? err;
  }
}

const CLIENT_HINT = 'check GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET (an OAuth client of type "Desktop app")';

/** Google answers a wrong client id or secret with 401 invalid_client: that is for the user to fix, not a sign-in. */
function clientRefused(err: unknown): ToolError | undefined {
  if (!(err instanceof ToolError) || err.code !== 'PERMISSION_DENIED') return undefined;
  return new ToolError(
    'PERMISSION_DENIED',
    `Google refused the OAuth client (${err.message.replace(/^.*?\((HTTP [^)]*)\).*$/, '$1')}); ${CLIENT_HINT}`,
  );
}

/** A new access token; `invalid_grant` (revoked, or expired after months unused) means signing in again. */
export async function refreshTokens(
  tokenUrl: string,
  creds: GoogleCredentials,
  refreshToken: string,
  signal: AbortSignal,
  retry?: HttpRetryOptions,
): Promise<TokenResponse> {
  const { client, path } = tokenClient(tokenUrl, retry);
  const form = {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: creds.clientId,
    client_secret: creds.clientSecret,
  };
  try {
    return checked(await client.json<TokenResponse>(path, { method: 'POST', form }, signal));
  } catch (err) {
    // Google answers a dead refresh token with 400 invalid_grant, a wrong client with 401 invalid_client.
    if (err instanceof ToolError && err.code === 'INVALID_PARAMS')
      throw new ToolError(
        'PERMISSION_DENIED',
        `the Google sign-in has expired or was revoked (${err.message.replace(/;.*$/, '')}); ${SIGN_IN_HINT} again`,
      );
    const refused = clientRefused(err);
    if (refused)
      throw new ToolError(
        'PERMISSION_DENIED',
        `${refused.message.replace(CLIENT_HINT, `ask the user to ${CLIENT_HINT}`)}`,
      );
    throw err;
  }
}

function checked(res: TokenResponse): TokenResponse {
  if (typeof res.access_token !== 'string' || !res.access_token)
    throw new ToolError('EXECUTION_FAILED', 'Google sign-in answered without an access token; try again');
  return res;
}
