// A local Google: the OAuth 2.0 authorization and token endpoints (PKCE S256, refresh grants,
// invalid_grant once revoked) and the parts of Gmail v1 and Calendar v3 the tools call, with
// Bearer checks (401 UNAUTHENTICATED for a token that is not current) and a switchable 429.
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { json, serve, type Seen, type TestServer } from './server.js';

export const CLIENT = { clientId: 'client-123.apps.googleusercontent.com', clientSecret: 'secret-456' };

export interface FakeGoogle extends TestServer {
  endpoints: { authUrl: string; tokenUrl: string; revokeUrl: string; gmailUrl: string; calendarUrl: string };
  /** The access tokens the APIs accept now. */
  valid: Set<string>;
  refreshTokens: Set<string>;
  /** Answer the next N API calls with 429 Retry-After: 0. */
  rateLimit(n: number): void;
  /** Answer the next N API calls with 503. */
  unavailable(n: number): void;
  /** Every grant the token endpoint saw. */
  grants: Record<string, string>[];
  /** Handles the Gmail/Calendar part of a request; set by each test file. */
  api: (req: Seen, res: ServerResponse) => void;
}

const challenge = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

export async function fakeGoogle(): Promise<FakeGoogle> {
  const codes = new Map<string, { challenge: string; redirect: string }>();
  const state = { limited: 0, down: 0, issued: 0 };
  const google: Partial<FakeGoogle> = { valid: new Set(), refreshTokens: new Set(), grants: [] };
  const issue = (refresh?: string) => {
    const access = `access-${++state.issued}`;
    google.valid!.add(access);
    return {
      access_token: access,
      expires_in: 3599,
      token_type: 'Bearer',
      scope: 'gmail calendar',
      ...(refresh ? { refresh_token: refresh } : {}),
    };
  };
  const authorize = (req: Seen, res: ServerResponse) => {
    const q = req.url.searchParams;
    if (
      q.get('client_id') !== CLIENT.clientId ||
      q.get('code_challenge_method') !== 'S256' ||
      q.get('response_type') !== 'code'
    )
      return void res.writeHead(400).end('bad request');
    const code = `code-${codes.size + 1}`;
    codes.set(code, { challenge: q.get('code_challenge')!, redirect: q.get('redirect_uri')! });
    const back = new URL(q.get('redirect_uri')!);
    back.searchParams.set('code', code);
    back.searchParams.set('state', q.get('state')!);
    res.writeHead(302, { location: back.href }).end();
  };
  const token = (req: Seen, res: ServerResponse) => {
    const form = Object.fromEntries(new URLSearchParams(req.body));
    google.grants!.push(form);
    if (form.client_id !== CLIENT.clientId || form.client_secret !== CLIENT.clientSecret)
      return json(res, 401, { error: 'invalid_client', error_description: 'Unauthorized' });
    if (form.grant_type === 'authorization_code') {
      const c = codes.get(form.code);
      codes.delete(form.code);
      if (!c || c.redirect !== form.redirect_uri || c.challenge !== challenge(form.code_verifier ?? ''))
        return json(res, 400, { error: 'invalid_grant', error_description: 'Bad Request' });
      const refresh = `refresh-${state.issued + 1}`;
      google.refreshTokens!.add(refresh);
      return json(res, 200, issue(refresh));
    }
    if (form.grant_type === 'refresh_token' && google.refreshTokens!.has(form.refresh_token))
      return json(res, 200, issue());
    json(res, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
  };
  const server = await serve((req, res) => {
    if (req.url.pathname === '/o/oauth2/v2/auth') return authorize(req, res);
    if (req.url.pathname === '/token') return token(req, res);
    if (req.url.pathname === '/revoke') {
      const t = new URLSearchParams(req.body).get('token') ?? '';
      if (!google.refreshTokens!.delete(t) && !google.valid!.delete(t))
        return json(res, 400, { error: 'invalid_token', error_description: 'Token expired or revoked' });
      return json(res, 200, {});
    }
    if (state.limited > 0) {
      state.limited--;
      return json(
        res,
        429,
        { error: { code: 429, message: 'Rate Limit Exceeded', status: 'RESOURCE_EXHAUSTED' } },
        { 'retry-after': '0' },
      );
    }
    if (state.down > 0) {
      state.down--;
      return json(res, 503, {
        error: { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' },
      });
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !google.valid!.has(bearer))
      return json(res, 401, {
        error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' },
      });
    fake.api(req, res);
  });
  const fake = Object.assign(server, google, {
    endpoints: {
      authUrl: `${server.origin}/o/oauth2/v2/auth`,
      tokenUrl: `${server.origin}/token`,
      revokeUrl: `${server.origin}/revoke`,
      gmailUrl: `${server.origin}/gmail/v1`,
      calendarUrl: `${server.origin}/calendar/v3`,
    },
    rateLimit: (n: number) => void (state.limited = n),
    unavailable: (n: number) => void (state.down = n),
    api: (_req: Seen, res: ServerResponse) => json(res, 404, {}),
  }) as FakeGoogle;
  return fake;
}
