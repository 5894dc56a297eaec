// A signed-in Google account as the tools use it: the access token from the store, refreshed a
// minute before it expires (or when an API answers 401), one refresh at a time.
import { ToolError } from '@toolbelt/core';
import { type HttpRetryOptions } from '@toolbelt/core/net';
import { ApiClient } from '../net/api.js';
import { SIGN_IN_HINT, type GoogleCredentials } from './endpoints.js';
import { refreshTokens } from './token-endpoint.js';
import { fromResponse, type StoredTokens, type TokenStore } from './tokens.js';

const EARLY_MS = 60_000;

export interface GoogleSessionOptions {
  credentials: GoogleCredentials;
  store: TokenStore;
  tokenUrl: string;
  retry?: HttpRetryOptions;
  timeoutMs?: number;
}

export class GoogleSession {
  private refreshing: Promise<StoredTokens> | undefined;

  constructor(private readonly opts: GoogleSessionOptions) {}

  /** A token that works for at least a minute more, refreshed when needed. */
  async accessToken(signal: AbortSignal): Promise<string> {
    const tokens = await this.saved();
    if (tokens.expires_at - EARLY_MS > Date.now()) return tokens.access_token;
    return (await this.refresh(signal)).access_token;
  }

  /** A fresh access token from the refresh token; concurrent callers share one request. */
  refresh(signal: AbortSignal): Promise<StoredTokens> {
    this.refreshing ??= this.doRefresh(signal).finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  /** A client for one Google API that sends the token and renews it once on a 401. */
  client(service: string, baseUrl: string): ApiClient {
    return new ApiClient({
      service,
      baseUrl,
      headers: async (signal) => ({ Authorization: `Bearer ${await this.accessToken(signal)}` }),
      reauthorize: async (signal) => Boolean(await this.refresh(signal)),
      credentialHint: `${SIGN_IN_HINT} again (the account may lack the ${service} permission)`,
      ...(this.opts.retry ? { retry: this.opts.retry } : {}),
      ...(this.opts.timeoutMs ? { timeoutMs: this.opts.timeoutMs } : {}),
    });
  }

  private async saved(): Promise<StoredTokens> {
    const tokens = await this.opts.store.load();
    if (!tokens) throw new ToolError('PERMISSION_DENIED', `Google is not signed in yet; ${SIGN_IN_HINT}`);
    return tokens;
  }

  private async doRefresh(signal: AbortSignal): Promise<StoredTokens> {
    const tokens = await this.saved();
    if (!tokens.refresh_token)
      throw new ToolError(
        'PERMISSION_DENIED',
        `the Google sign-in has expired and cannot be renewed; ${SIGN_IN_HINT} again`,
      );
    const answer = await refreshTokens(
      this.opts.tokenUrl,
      this.opts.credentials,
      tokens.refresh_token,
      signal,
      this.opts.retry,
    );
    const next = fromResponse(answer, tokens);
    await this.opts.store.save(next);
    return next;
  }
}
