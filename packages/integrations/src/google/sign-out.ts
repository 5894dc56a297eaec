// Signing out: the grant is revoked at Google (RFC 7009; revoking the refresh token ends its access
// tokens too) and the token file removed. The file goes even when Google cannot be reached, so
// nothing is left behind on this machine; the answer says whether the revocation went through.
import { ApiClient } from '../net/api.js';
import type { TokenStore } from './tokens.js';

export interface SignOutResult {
  /** There were tokens to remove. */
  hadTokens: boolean;
  /** Google confirmed the revocation; a message saying why not, otherwise. */
  revoked: true | string;
}

export async function signOut(store: TokenStore, revokeUrl: string, signal: AbortSignal): Promise<SignOutResult> {
  const tokens = await store.load();
  await store.remove();
  if (!tokens) return { hadTokens: false, revoked: 'there was nothing to revoke' };
  const url = new URL(revokeUrl);
  const client = new ApiClient({
    service: 'Google',
    baseUrl: url.origin,
    credentialHint: 'the grant may already be revoked',
    retry: { attempts: 1 },
  });
  try {
    await client.send(
      url.pathname,
      { method: 'POST', form: { token: tokens.refresh_token ?? tokens.access_token } },
      signal,
    );
    return { hadTokens: true, revoked: true };
  } catch (err) {
    return { hadTokens: true, revoked: (err as Error).message };
  }
}
