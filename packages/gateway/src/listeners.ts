// Where the gateway listens: each bind checked as safe (no address beyond loopback without tokens)
// and let through the Host and Origin check.
import { HostCheck } from '@toolbelt/core/net';
import type { Hono } from 'hono';
import type { GatewaySettings } from './config.js';
import type { Auth, AuthEnv } from './http/auth.js';
import { assertSafeBind, listen, type Listening } from './server.js';

/** The Host and Origin check: localhost, the bound address, and the names the config and the caller allow. */
export function hostCheck(settings: GatewaySettings, allowedHosts: readonly string[] = []): HostCheck {
  return new HostCheck({
    allowedHosts: [...settings.allowedHosts, ...allowedHosts],
    howToAllow: (name) => `add "${name}" to gateway.allowedHosts in the config`,
  });
}

/** The addresses the gateway listens on; by default the config's gateway.host and gateway.port. */
export class Listeners {
  private readonly open: Listening[] = [];

  constructor(
    private readonly app: Hono<AuthEnv>,
    private readonly hosts: HostCheck,
    private readonly auth: Auth,
    private readonly settings: GatewaySettings,
  ) {}

  async listen(opts: { host?: string; port?: number } = {}): Promise<Listening> {
    const host = opts.host ?? this.settings.host;
    assertSafeBind(host, this.auth.enabled);
    this.hosts.allowBound(host);
    const l = await listen(this.app.fetch, host, opts.port ?? this.settings.port);
    this.open.push(l);
    return l;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.open.splice(0).map((l) => l.close()));
  }
}
