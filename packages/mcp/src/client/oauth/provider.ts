// The SDK's OAuthClientProvider for one configured server, its state in an OAuthStore. The SDK runs
// the MCP authorization flow (protected-resource metadata, authorization-server discovery, dynamic
// client registration, PKCE, the resource parameter, refresh, scope step-up); this keeps what it
// learns. Connecting never opens a browser: without a usable token the server waits for
// `toolbelt mcp login NAME`, which supplies `redirect`.
import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpServerConfig } from '../../config.js';
import { OAuthStore } from './store.js';

export interface OAuthSettings {
  /** A client registered with the authorization server ahead of time (else dynamic registration). */
  clientId?: string;
  clientSecret?: string;
  /** Scopes to ask for at login (default: what the server says it needs). */
  scope?: string;
}

export class NeedsLoginError extends Error {
  constructor(
    readonly server: string,
    /** Set when signed in already, but the server asks for more (scope step-up). */
    readonly scope?: string,
  ) {
    super(
      scope
        ? `MCP server "${server}" needs more access (scope "${scope}"): run \`toolbelt mcp login ${server}\`, then try again`
        : `MCP server "${server}" needs you to sign in: run \`toolbelt mcp login ${server}\``,
    );
  }
}

/** True for a connect failure that only signing in fixes. */
export function needsLogin(err: unknown): boolean {
  return (
    err instanceof NeedsLoginError ||
    (err as Error)?.name === 'UnauthorizedError' ||
    (err as Error)?.constructor?.name === 'UnauthorizedError'
  );
}

/**
 * The provider for an http or sse server that may use OAuth: any such server unless its config
 * says `"oauth": false` or sends its own Authorization header.
 */
export function oauthFor(
  server: string,
  cfg: McpServerConfig,
  dir: string | undefined,
): StoredOAuthProvider | undefined {
  if (!dir || !cfg.url || cfg.oauth === false) return undefined;
  if (Object.keys(cfg.headers ?? {}).some((h) => h.toLowerCase() === 'authorization')) return undefined;
  return new StoredOAuthProvider({
    server,
    store: new OAuthStore(dir, server, cfg.url),
    ...(cfg.oauth ? { settings: cfg.oauth } : {}),
  });
}

export interface ProviderOptions {
  server: string;
  store: OAuthStore;
  settings?: OAuthSettings;
  /** Login only: where the browser comes back to, and how to send the person there. */
  login?: { redirectUrl: string; open(url: URL): void | Promise<void> };
}

export class StoredOAuthProvider implements OAuthClientProvider {
  private expectedState: string | undefined;

  constructor(private readonly opts: ProviderOptions) {}

  /**
   * At login, the loopback server's; after it, the one the login used (the SDK refreshes tokens
   * only in the redirect flow). Never signed in: a placeholder, so that the SDK's flow ends in
   * redirectToAuthorization, which says to log in.
   */
  get redirectUrl(): string {
    return this.opts.login?.redirectUrl ?? this.opts.store.read().redirectUrl ?? 'http://127.0.0.1/callback';
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.opts.settings?.scope;
    return {
      client_name: 'toolbelt',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.opts.settings?.clientSecret ? 'client_secret_post' : 'none',
      ...(scope ? { scope } : {}),
    };
  }

  state(): string {
    this.expectedState = randomBytes(16).toString('hex');
    return this.expectedState;
  }

  /** The state sent with the authorization request, to check the one that comes back. */
  get sentState(): string | undefined {
    return this.expectedState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const { clientId, clientSecret } = this.opts.settings ?? {};
    if (clientId) return { client_id: clientId, ...(clientSecret ? { client_secret: clientSecret } : {}) };
    const client = this.opts.store.read().client;
    // Registering a client belongs to the login, which has a redirect URL to register.
    if (!client && !this.opts.login) throw new NeedsLoginError(this.opts.server);
    return client;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.opts.store.update((s) => ({ ...s, client }));
  }

  /** Sent as they are: an expired access token gets a 401, on which the SDK refreshes it. */
  tokens(): OAuthTokens | undefined {
    return this.opts.store.read().tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.opts.store.update((s) => {
      // A refresh answer may leave the refresh token out: keep the one we have.
      const refresh = tokens.refresh_token ?? s.tokens?.refresh_token;
      return { ...s, tokens: { ...tokens, ...(refresh ? { refresh_token: refresh } : {}) } };
    });
  }

  /**
   * Outside a login nobody can open the page: the scope it asks for (from the server's
   * WWW-Authenticate, a step-up included) is kept for the next login, which then asks for it.
   */
  async redirectToAuthorization(url: URL): Promise<void> {
    if (this.opts.login) return this.opts.login.open(url);
    const scope = url.searchParams.get('scope') ?? undefined;
    const signedIn = this.opts.store.read().tokens !== undefined;
    this.opts.store.update((s) => ({ ...s, ...(scope ? { pendingScope: scope } : {}) }));
    throw new NeedsLoginError(this.opts.server, signedIn ? scope : undefined);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.opts.store.update((s) => ({ ...s, codeVerifier }));
  }

  codeVerifier(): string {
    const verifier = this.opts.store.read().codeVerifier;
    if (!verifier) throw new Error('no PKCE code verifier saved; start the login again');
    return verifier;
  }

  saveDiscoveryState(discovery: OAuthDiscoveryState): void {
    this.opts.store.update((s) => ({ ...s, discovery }));
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.opts.store.read().discovery;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    this.opts.store.update((s) => {
      if (scope === 'all') return {};
      const next = { ...s };
      if (scope === 'client') delete next.client;
      if (scope === 'tokens') delete next.tokens;
      if (scope === 'verifier') delete next.codeVerifier;
      if (scope === 'discovery') delete next.discovery;
      return next;
    });
  }
}
