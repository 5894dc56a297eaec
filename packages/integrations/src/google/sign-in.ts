// Signing in to Google: OAuth 2.0 for installed apps with PKCE (RFC 7636, S256) and a loopback
// redirect (RFC 8252 §7.3). A one-shot server on 127.0.0.1 takes the browser's redirect, the state
// is checked, the code exchanged with the verifier, and the tokens saved with mode 0600.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GOOGLE_SCOPES, type GoogleCredentials } from './endpoints.js';
import { exchangeCode } from './token-endpoint.js';
import { fromResponse, type StoredTokens, type TokenStore } from './tokens.js';

export interface SignInOptions {
  credentials: GoogleCredentials;
  store: TokenStore;
  authUrl: string;
  tokenUrl: string;
  scopes?: string[];
  /** Shows the person the address to open (and may open a browser). */
  open(url: string): void | Promise<void>;
  /** How long to wait for the browser. Default 5 minutes. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export class SignInError extends Error {}

const base64url = (b: Buffer) => b.toString('base64url');

/** A PKCE verifier (43 characters of 32 random bytes) and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = base64url(randomBytes(32));
  return { verifier, challenge: base64url(createHash('sha256').update(verifier).digest()) };
}

function authorizationUrl(opts: SignInOptions, redirectUri: string, challenge: string, state: string): string {
  const url = new URL(opts.authUrl);
  const params = {
    client_id: opts.credentials.clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: (opts.scopes ?? GOOGLE_SCOPES).join(' '),
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
    // A refresh token, and a fresh one on each sign-in, so a re-run repairs a revoked grant.
    access_type: 'offline',
    prompt: 'consent',
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.href;
}

const PAGE = (msg: string) => `<!doctype html><meta charset="utf-8"><title>toolbelt</title><p>${msg}</p>`;

/** Waits on the loopback server for the one redirect that carries our state; resolves with its code. */
function awaitRedirect(server: Server, state: string, timeoutMs: number, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const fail = (err: Error) => {
      clearTimeout(timer);
      reject(err);
    };
    const timer = setTimeout(
      () =>
        fail(
          new SignInError(`no answer from the browser within ${Math.round(timeoutMs / 1000)} s; run the command again`),
        ),
      timeoutMs,
    );
    signal?.addEventListener('abort', () => fail(new SignInError('sign-in cancelled')), { once: true });
    server.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      // Browsers also ask for /favicon.ico; only the redirect carries a state.
      if (url.searchParams.get('state') !== state) return void res.writeHead(404).end();
      const error = url.searchParams.get('error');
      const code = url.searchParams.get('code');
      res.writeHead(error || !code ? 400 : 200, { 'content-type': 'text/html; charset=utf-8' });
      if (error || !code) {
        res.end(PAGE('Sign-in failed. You can close this window.'));
        return fail(new SignInError(`Google refused the sign-in: ${error ?? 'no code in the redirect'}`));
      }
      res.end(PAGE('Signed in to toolbelt. You can close this window.'));
      clearTimeout(timer);
      resolve(code);
    });
  });
}

export async function signIn(opts: SignInOptions): Promise<StoredTokens> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  // Ends the wait (and its timer) however the sign-in ends.
  const done = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, done.signal]) : done.signal;
  try {
    const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const { verifier, challenge } = pkcePair();
    const state = base64url(randomBytes(16));
    const code = awaitRedirect(server, state, opts.timeoutMs ?? 300_000, signal);
    code.catch(() => undefined);
    await opts.open(authorizationUrl(opts, redirectUri, challenge, state));
    const answer = await exchangeCode(opts.tokenUrl, opts.credentials, await code, verifier, redirectUri, signal);
    const tokens = fromResponse(answer);
    await opts.store.save(tokens);
    return tokens;
  } finally {
    done.abort();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
