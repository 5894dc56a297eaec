// The SSRF guard: a URL may only reach public unicast addresses, checked on the addresses the
// connection really uses (DNS answers included, so a name cannot rebind to 127.0.0.1), unless
// the host is listed in web.allowHosts.
import { lookup as dnsLookup, promises as dns, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { ToolError } from '@toolbelt/core';
import ipaddr from 'ipaddr.js';

/** Why an address is refused, or undefined for a public unicast address. */
export function blockedAddress(address: string): string | undefined {
  let parsed;
  try {
    parsed = ipaddr.process(address); // IPv4-mapped IPv6 becomes IPv4
  } catch {
    return 'not an IP address';
  }
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  if (parsed.kind() === 'ipv4' && parsed.toString() === '169.254.169.254') return 'the cloud metadata address';
  const words: Record<string, string> = {
    loopback: 'a loopback address',
    private: 'a private network address',
    linkLocal: 'a link-local address',
    uniqueLocal: 'a private (unique local) address',
    unspecified: 'the unspecified address',
    carrierGradeNat: 'a carrier-grade NAT address',
  };
  return words[range] ?? `a non-public address (${range})`;
}

/** Name to addresses; the system resolver unless a test supplies its own. */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

export class HostPolicy {
  private readonly exact = new Set<string>();
  private readonly suffixes: string[] = [];

  /** Entries: a host name, an IP address, or `*.example.com` for every subdomain. */
  constructor(
    allowHosts: readonly string[] = [],
    private readonly resolver: Resolver = systemResolver,
  ) {
    for (const raw of allowHosts) {
      const h = normalizeHost(raw);
      if (h.startsWith('*.')) this.suffixes.push(h.slice(1));
      else this.exact.add(h);
    }
  }

  allows(host: string): boolean {
    const h = normalizeHost(host);
    return this.exact.has(h) || this.suffixes.some((s) => h.endsWith(s));
  }

  /** Refuses an http(s) URL whose host is a non-public IP literal; names are checked at connect time. */
  checkUrl(url: URL): void {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ToolError(
        'INVALID_PARAMS',
        `only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, '')}:`,
      );
    }
    const host = normalizeHost(url.hostname);
    if (!isIP(host) || this.allows(host)) return;
    const why = blockedAddress(host);
    if (why) throw refusal(url.hostname, host, why);
  }

  /** A `lookup` for http.request: resolves, then refuses the connection if any answer is not public. */
  lookup(): typeof dnsLookup {
    const guarded = (hostname: string, options: unknown, callback: unknown) => {
      const cb = (typeof options === 'function' ? options : callback) as (
        err: Error | null,
        address: string | LookupAddress[],
        family?: number,
      ) => void;
      const opts = (typeof options === 'object' && options !== null ? options : {}) as {
        all?: boolean;
        family?: number;
      };
      this.resolver(hostname).then(
        (found) => {
          const addresses =
            opts.family === 4 || opts.family === 6 ? found.filter((a) => a.family === opts.family) : found;
          if (!addresses.length)
            return cb(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
          if (!this.allows(hostname)) {
            for (const a of addresses) {
              const why = blockedAddress(a.address);
              if (why) return cb(refusal(hostname, a.address, why), []);
            }
          }
          if (opts.all) return cb(null, addresses);
          cb(null, addresses[0].address, addresses[0].family);
        },
        (err: Error) => cb(err, []),
      );
    };
    return guarded as unknown as typeof dnsLookup;
  }
}

function refusal(host: string, address: string, why: string): ToolError {
  const via = host === address ? '' : ` (it resolves to ${address})`;
  return new ToolError(
    'PERMISSION_DENIED',
    `refusing to fetch ${host}${via}: ${why}. Only public addresses can be fetched; ask the user to add the host to web.allowHosts in toolbelt.config.json if it is trusted.`,
  );
}

function normalizeHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
}
