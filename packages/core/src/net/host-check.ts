// DNS rebinding: a web page on attacker.example can make its own name resolve to 127.0.0.1 and
// then talk to a server on this machine as if it were its own origin. The browser still sends
// `Host: attacker.example`, so a server that answers only the names it is really reached by is
// out of that page's reach. Pure string work over header values, so the gateway (Hono) and the
// MCP HTTP server (node:http) share one implementation without either depending on the other.
import { isWildcard } from './bind.js';

/** Always accepted: names of this machine no web page can take over. */
const LOCAL_NAMES = ['localhost', '127.0.0.1', '::1'];
// A Host header: a name or an IPv4 address, or an IPv6 address in brackets; an optional port.
const HOST_FORM = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9_.-]+))(?::\d{1,5})?$/i;
const SHOWN = 200;

export class HostConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HostConfigError';
  }
}

export interface HostCheckOptions {
  /** Names or addresses accepted besides the local ones and the bound address; a ":port" is ignored. */
  allowedHosts?: readonly string[];
  /** Exact origins (scheme://host[:port]) accepted besides http(s) pages on an accepted host. */
  allowedOrigins?: readonly string[];
  /** The address listened on; accepted as a name unless it is a wildcard (0.0.0.0, ::). */
  boundHost?: string;
  /** Ends a refusal: how to accept `name`, e.g. `add "name" to gateway.allowedHosts in the config`. */
  howToAllow: (name: string) => string;
}

export interface HostRefusal {
  header: 'Host' | 'Origin';
  message: string;
}

function normalize(name: string): string {
  // "localhost." is the same name as "localhost" to DNS.
  return name.toLowerCase().replace(/\.$/, '');
}

/** The host name in a Host value ("name:port", "[::1]:port"), lower case without brackets; undefined when malformed. */
export function hostNameOf(value: string): string | undefined {
  const m = HOST_FORM.exec(value);
  if (!m) return undefined;
  const name = normalize(m[1] ?? m[2]);
  // No DNS name is longer than 253 characters.
  return name === '' || name.length > 253 ? undefined : name;
}

const show = (value: string) => JSON.stringify(value.length > SHOWN ? `${value.slice(0, SHOWN)}…` : value);
const bracket = (name: string) => (name.includes(':') ? `[${name}]` : name);

export class HostCheck {
  private readonly hosts = new Set(LOCAL_NAMES);
  private readonly origins: Set<string>;
  // Most clients send the same Host on every request: remember the last one that passed.
  private lastGood: string | undefined;

  constructor(private readonly opts: HostCheckOptions) {
    for (const entry of opts.allowedHosts ?? []) {
      // A bare IPv6 address ("fd00::1") has colons but no port.
      const name =
        typeof entry === 'string' && /^[0-9a-f]*:[0-9a-f:.]*:[0-9a-f:.]*$/i.test(entry)
          ? normalize(entry)
          : hostNameOf(String(entry));
      if (!name)
        throw new HostConfigError(
          `allowed host ${show(String(entry))} is not a host name; give a name or an address, such as gateway.example.com or 10.0.0.5`,
        );
      this.hosts.add(name);
    }
    this.origins = new Set((opts.allowedOrigins ?? []).map((o) => o.toLowerCase().replace(/\/$/, '')));
    if (opts.boundHost) this.allowBound(opts.boundHost);
  }

  /** Accepts the address a listener is bound to. A wildcard says nothing about the names clients use. */
  allowBound(host: string): void {
    if (!isWildcard(host)) this.hosts.add(normalize(host.replace(/^\[|\]$/g, '')));
  }

  /** The accepted names, as a person would write them in a URL. */
  get names(): string[] {
    return [...this.hosts].map(bracket);
  }

  /** Why a request with these Host and Origin values is refused, or undefined when it may go on. */
  check(host: string | undefined, origin: string | undefined): HostRefusal | undefined {
    if (host === undefined || host === '')
      return {
        header: 'Host',
        message: 'the request has no Host header; send the host and port you connect to, e.g. "Host: 127.0.0.1:7077"',
      };
    if (host !== this.lastGood) {
      const name = hostNameOf(host);
      if (name === undefined)
        return {
          header: 'Host',
          message: `Host ${show(host)} is not a host name with an optional port; send the host and port you connect to`,
        };
      if (!this.hosts.has(name)) {
        return {
          header: 'Host',
          message: `Host ${show(host)} is not allowed: this server answers only requests addressed to ${this.names.join(', ')}, so a web page cannot reach it by pointing its own name at this machine (DNS rebinding). If clients really reach it as ${bracket(name)}, ${this.opts.howToAllow(bracket(name))}.`,
        };
      }
      this.lastGood = host;
    }
    if (origin !== undefined && !this.originAllowed(origin))
      return { header: 'Origin', message: this.originRefusal(origin) };
    return undefined;
  }

  private originAllowed(origin: string): boolean {
    const o = origin.toLowerCase().replace(/\/$/, '');
    if (this.origins.has(o)) return true;
    const m = /^https?:\/\/(.+)$/.exec(o);
    const name = m ? hostNameOf(m[1]) : undefined;
    return name !== undefined && this.hosts.has(name);
  }

  private originRefusal(origin: string): string {
    const m = /^https?:\/\/(.+)$/i.exec(origin.replace(/\/$/, ''));
    const name = m ? hostNameOf(m[1]) : undefined;
    const head = `Origin ${show(origin)} is not allowed: only web pages served from ${this.names.join(', ')} may call this server`;
    return name
      ? `${head}. If pages on ${bracket(name)} should call it, ${this.opts.howToAllow(bracket(name))}.`
      : `${head}; a request that is not from such a page must not send Origin.`;
  }
}
