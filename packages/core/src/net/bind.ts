// Where a local tool server may listen: loopback freely, any other address only behind a token,
// since anyone who can reach it could run tools. Shared by the gateway and the MCP HTTP server.

export class BindRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BindRefusedError';
  }
}

/** A loopback address or name (brackets allowed around IPv6). */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || h === '::ffff:127.0.0.1';
}

/** An address that listens on every interface. */
export function isWildcard(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '');
  return h === '0.0.0.0' || h === '::' || h === '';
}

export interface BindAdvice {
  /** What is missing, e.g. "tokens" or "a token". */
  what: string;
  /** How to add it, e.g. "Add gateway.tokens to the config (or set TOOLBELT_GATEWAY_TOKEN)". */
  howTo: string;
}

/** Throws BindRefusedError for a non-loopback address without a token. */
export function assertSafeBind(host: string, hasToken: boolean, advice: BindAdvice): void {
  if (isLoopback(host) || hasToken) return;
  throw new BindRefusedError(
    `refusing to listen on ${host} without ${advice.what}: anyone who can reach it could run tools. ${advice.howTo}, or listen on 127.0.0.1.`,
  );
}
