// What a failed connection or spawn was, in words: fetch (undici) says only "fetch failed" and an
// SDK "Connection error.", with the system error (ECONNREFUSED, ENOTFOUND, a timeout) a cause or
// two down. One wording for every place that reaches out: the gateway client, the integrations,
// the model providers of `toolbelt chat`.

const CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'the DNS lookup failed',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no answer in time',
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed',
  UND_ERR_SOCKET: 'the connection was closed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOENT: 'not found',
  EACCES: 'permission denied',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
};

// Messages that say nothing beyond "it failed": the cause below says what.
const VAGUE = /^(fetch failed|connection error\.?|request failed|terminated)$/i;

/** The errors from `err` down its causes (and an AggregateError's errors), outermost first. */
function chain(err: unknown): Error[] {
  const out: Error[] = [];
  for (let e = err, depth = 0; e instanceof Error && depth < 5; depth++) {
    out.push(e);
    const inner = (e as { errors?: unknown[] }).errors;
    e = (e as { cause?: unknown }).cause ?? (Array.isArray(inner) ? inner[0] : undefined);
  }
  return out;
}

/** The system error's code anywhere down the chain (ECONNREFUSED), or undefined. */
export function errorCode(err: unknown): string | undefined {
  for (const e of chain(err)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
  }
  return undefined;
}

/** The cause of a failed fetch or spawn in words: "connection refused (ECONNREFUSED)". */
export function describeCause(err: unknown): string {
  const code = errorCode(err);
  if (code && CODES[code]) return `${CODES[code]} (${code})`;
  const errors = chain(err);
  if (errors.some((e) => e.name === 'TimeoutError')) return 'no answer in time (timeout)';
  const said = [...errors].reverse().find((e) => e.message && !VAGUE.test(e.message.trim()));
  const text = said?.message ?? (err instanceof Error ? err.message : String(err));
  return code && !text.includes(code) ? `${text} (${code})` : text;
}

/** "cannot reach the gateway at http://127.0.0.1:1: connection refused (ECONNREFUSED)". */
export function unreachableMessage(what: string, url: string, err: unknown): string {
  return `cannot reach ${what} at ${url}: ${describeCause(err)}`;
}

/** True when the error is one of reaching a server (fetch's TypeError, an SDK's connection error), not an answer. */
export function isConnectionFailure(err: unknown): boolean {
  const first = chain(err)[0];
  if (!first) return false;
  const code = errorCode(err);
  if (code && CODES[code]) return true;
  // The SDKs' APIConnectionError and APIConnectionTimeoutError; the OpenAI SDK's keep the name "Error".
  const sdk = [first.name, first.constructor.name].some((n) => n.startsWith('APIConnection'));
  return sdk || (first.name === 'TypeError' && VAGUE.test(first.message));
}
