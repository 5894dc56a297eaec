// Google tokens on disk: <root>/.toolbelt/google-tokens.json, mode 0600, written whole (temp file,
// then rename) so a crash never leaves half a file. The workspace guard keeps .toolbelt/ from the tools.
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export interface StoredTokens {
  access_token: string;
  refresh_token?: string;
  /** Epoch ms when the access token stops working. */
  expires_at: number;
  scope?: string;
  token_type?: string;
}

/** The token endpoint's answer (RFC 6749 §5.1). */
export interface TokenResponse {
  access_token: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
  token_type?: string;
}

export const TOKEN_FILE = 'google-tokens.json';

export class TokenStore {
  constructor(readonly path: string) {}

  static in(stateDir: string): TokenStore {
    return new TokenStore(join(stateDir, TOKEN_FILE));
  }

  /** The saved tokens, or undefined when there are none (never signed in) or the file is unreadable. */
  async load(): Promise<StoredTokens | undefined> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch {
      return undefined;
    }
    try {
      const t = JSON.parse(text) as StoredTokens;
      return typeof t.access_token === 'string' && typeof t.expires_at === 'number' ? t : undefined;
    } catch {
      return undefined;
    }
  }

  /** Removes the file; true when there was one. */
  async remove(): Promise<boolean> {
    const had = (await this.load()) !== undefined;
    await rm(this.path, { force: true });
    return had;
  }

  async save(tokens: StoredTokens): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const temp = `${this.path}.${process.pid}.tmp`;
    await writeFile(temp, JSON.stringify(tokens, null, 2) + '\n', { mode: 0o600 });
    // writeFile's mode is masked by the umask and ignored for an existing file; set it outright.
    await chmod(temp, 0o600);
    await rename(temp, this.path);
  }
}

/** Tokens to keep from an answer; a refresh answer may leave out the refresh token, which then stays. */
export function fromResponse(res: TokenResponse, previous?: StoredTokens, now = Date.now()): StoredTokens {
  const refresh = res.refresh_token ?? previous?.refresh_token;
  return {
    access_token: res.access_token,
    ...(refresh ? { refresh_token: refresh } : {}),
    expires_at: now + (res.expires_in ?? 3600) * 1000,
    ...((res.scope ?? previous?.scope) ? { scope: res.scope ?? previous?.scope } : {}),
    ...(res.token_type ? { token_type: res.token_type } : {}),
  };
}
