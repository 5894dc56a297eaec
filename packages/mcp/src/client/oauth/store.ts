// One server's OAuth state on disk: `.toolbelt/oauth/<server>.json`, mode 0600 in a 0700 directory,
// written atomically, so tokens are readable by the user alone and never half-written.
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import { sanitize } from '../../names.js';

export interface OAuthState {
  /** The server's URL the state belongs to: a changed URL starts afresh. */
  url?: string;
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  codeVerifier?: string;
  /** The scope the server last asked for, which the next login asks for. */
  pendingScope?: string;
  /** The loopback redirect URL the login used. */
  redirectUrl?: string;
  discovery?: OAuthDiscoveryState;
}

export class OAuthStore {
  readonly path: string;

  constructor(
    readonly dir: string,
    server: string,
    private readonly url: string,
  ) {
    this.path = join(dir, `${sanitize(server)}.json`);
  }

  read(): OAuthState {
    try {
      const state = JSON.parse(readFileSync(this.path, 'utf8')) as OAuthState;
      return state.url === this.url ? state : {};
    } catch {
      // Missing or unreadable: not signed in.
      return {};
    }
  }

  update(change: (state: OAuthState) => OAuthState): void {
    const next = { ...change(this.read()), url: this.url };
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    const temp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(next, null, 2), { mode: 0o600 });
    renameSync(temp, this.path);
  }
}
