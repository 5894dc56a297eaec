import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Executor, Policy, ToolRegistry } from '@toolbelt/core';
import { CLIENT, fakeGoogle, type FakeGoogle } from '../__fixtures__/google.js';
import { json } from '../__fixtures__/server.js';
import { googleTools } from './index.js';
import { signIn, SignInError } from './sign-in.js';
import { signOut } from './sign-out.js';
import { TokenStore, type StoredTokens } from './tokens.js';

let google: FakeGoogle;
const dirs: string[] = [];

beforeAll(async () => {
  google = await fakeGoogle();
  google.api = (req, res) =>
    req.url.pathname.endsWith('/users/me/messages') ? json(res, 200, { resultSizeEstimate: 0 }) : json(res, 404, {});
});
afterAll(() => google.close());
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function stateDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'tb-google-'));
  dirs.push(d);
  return join(d, '.toolbelt');
}

/** Plays the browser: opens the address and follows the redirect back to the loopback server. */
const browser = async (url: string) => void (await fetch(url));

const signInTo = (dir: string, open = browser) =>
  signIn({
    credentials: CLIENT,
    store: TokenStore.in(dir),
    authUrl: google.endpoints.authUrl,
    tokenUrl: google.endpoints.tokenUrl,
    open,
  });

function search(dir: string) {
  const tools = googleTools({
    credentials: CLIENT,
    stateDir: dir,
    timeZone: 'UTC',
    endpoints: google.endpoints,
    retry: { baseDelayMs: 1 },
  });
  const ex = new Executor({ registry: new ToolRegistry().registerAll(tools), policy: new Policy({ mode: 'safe' }) });
  return ex.call({ tool: 'gmail_search', input: { query: 'is:unread' } });
}

describe('signing in to Google', () => {
  it('runs the PKCE flow through a loopback redirect and keeps the tokens in a 0600 file', async () => {
    const dir = stateDir();
    let opened = '';
    const tokens = await signInTo(dir, (url) => browser((opened = url)));
    const asked = new URL(opened).searchParams;
    expect(asked.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(asked.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(asked.get('access_type')).toBe('offline');
    expect(asked.get('scope')).toContain('https://www.googleapis.com/auth/gmail.send');
    const exchange = google.grants.at(-1)!;
    expect(exchange.grant_type).toBe('authorization_code');
    expect(exchange.code_verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const file = join(dir, 'google-tokens.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(tokens);
    expect(tokens.refresh_token).toMatch(/^refresh-/);
    expect((await search(dir)).status).toBe('success');
  });

  it('refuses a redirect that reports an error, and ignores one with another state', async () => {
    const dir = stateDir();
    const denied = signInTo(dir, async (url) => {
      const u = new URL(url);
      const back = new URL(u.searchParams.get('redirect_uri')!);
      expect((await fetch(`${back.origin}/?state=forged&code=stolen`)).status).toBe(404);
      await fetch(`${back.origin}/?state=${u.searchParams.get('state')}&error=access_denied`);
    });
    await expect(denied).rejects.toThrow(SignInError);
    await expect(denied).rejects.toThrow('Google refused the sign-in: access_denied');
    expect(await TokenStore.in(dir).load()).toBeUndefined();
  });
});

describe('using the tokens', () => {
  it('tells the model to have the user sign in when there are no tokens', async () => {
    const r = await search(stateDir());
    expect(r.error?.code).toBe('PERMISSION_DENIED');
    expect(r.error?.message).toBe(
      'Google is not signed in yet; ask the user to run `toolbelt auth google` in the workspace to sign in',
    );
  });

  it('refreshes an access token that is about to expire, keeping the refresh token', async () => {
    const dir = stateDir();
    const first = await signInTo(dir);
    await TokenStore.in(dir).save({ ...first, expires_at: Date.now() + 10_000 });
    expect((await search(dir)).status).toBe('success');
    const now = (await TokenStore.in(dir).load()) as StoredTokens;
    expect(google.grants.at(-1)).toMatchObject({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(now.access_token).not.toBe(first.access_token);
    expect(now.refresh_token).toBe(first.refresh_token);
    expect(now.expires_at).toBeGreaterThan(Date.now() + 3_000_000);
  });

  it('renews once when the API answers 401 for a token that expired early', async () => {
    const dir = stateDir();
    const first = await signInTo(dir);
    google.valid.delete(first.access_token);
    const grants = google.grants.length;
    expect((await search(dir)).status).toBe('success');
    expect(google.grants.slice(grants).map((g) => g.grant_type)).toEqual(['refresh_token']);
  });

  it('says to sign in again when the refresh token was revoked', async () => {
    const dir = stateDir();
    const first = await signInTo(dir);
    google.valid.delete(first.access_token);
    google.refreshTokens.delete(first.refresh_token!);
    const r = await search(dir);
    expect(r.error?.code).toBe('PERMISSION_DENIED');
    expect(r.error?.message).toContain('the Google sign-in has expired or was revoked');
    expect(r.error?.message).toContain('toolbelt auth google');
  });

  it('waits out a 429 with Retry-After; says to wait when it lasts', async () => {
    const dir = stateDir();
    await signInTo(dir);
    google.rateLimit(2);
    expect((await search(dir)).status).toBe('success');
    google.rateLimit(10);
    const r = await search(dir);
    google.rateLimit(0);
    expect(r.error).toMatchObject({ code: 'EXECUTION_FAILED', recoverable: true });
    expect(r.error?.message).toBe('Gmail rate limit reached (HTTP 429) (it asked for 0 s); wait, then try again');
  });
});

describe('signing out', () => {
  it('deletes the tokens even when Google cannot confirm the revocation, and says so', async () => {
    const dir = stateDir();
    const first = await signInTo(dir);
    google.refreshTokens.delete(first.refresh_token!);
    google.valid.delete(first.access_token);
    const r = await signOut(TokenStore.in(dir), google.endpoints.revokeUrl, new AbortController().signal);
    expect(r.hadTokens).toBe(true);
    expect(r.revoked).toContain('Token expired or revoked');
    expect(await TokenStore.in(dir).load()).toBeUndefined();
    expect((await search(dir)).error?.message).toContain('Google is not signed in yet');
  });
});
