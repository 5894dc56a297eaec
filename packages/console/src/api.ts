// The gateway's HTTP API as the page uses it: requests by route key, typed from the route table of
// @toolbelt/protocol (plain data, nothing else of it in the bundle), and the token kept in this tab's
// session storage.
import {
  ROUTES,
  routeUrl,
  type RouteAnswer,
  type RouteArgs,
  type RouteKey,
  type RouteParams,
  type RouteQuery,
} from '@toolbelt/protocol/routes';

const TOKEN_KEY = 'toolbelt.token';

export function token(): string | undefined {
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

export function setToken(value: string | undefined): void {
  if (value) sessionStorage.setItem(TOKEN_KEY, value);
  else sessionStorage.removeItem(TOKEN_KEY);
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function headers(body: boolean): Record<string, string> {
  const h: Record<string, string> = {};
  const t = token();
  if (t) h.authorization = `Bearer ${t}`;
  if (body) h['content-type'] = 'application/json';
  return h;
}

/** No argument needed when the route takes neither path parameters nor a body. */
type ArgsOf<K extends RouteKey> = object extends RouteArgs<K> ? [args?: RouteArgs<K>] : [args: RouteArgs<K>];

/** The path and query of a request to route `key`. */
function urlOf<K extends RouteKey>(key: K, args: { params?: unknown; query?: unknown }): string {
  const params = args.params as RouteParams<K> | undefined;
  return routeUrl(key, { ...(params ? { params } : {}), query: args.query as RouteQuery<K> });
}

/** One request to route `key`; a refused one throws ApiError with the gateway's message. */
export async function api<K extends RouteKey>(key: K, ...[args]: ArgsOf<K>): Promise<RouteAnswer<K>> {
  const a: { params?: unknown; query?: unknown; body?: unknown } = args ?? {};
  const method = ROUTES[key].method;
  const init: RequestInit =
    a.body === undefined
      ? { method, headers: headers(false) }
      : { method, headers: headers(true), body: JSON.stringify(a.body) };
  const res = await fetch(urlOf(key, a), init);
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    throw new ApiError(res.status, 'BAD_ANSWER', `the gateway answered ${res.status} with something other than JSON`);
  }
  const err = (parsed as { error?: { code?: string; message?: string } } | undefined)?.error;
  // A tool call answers 404/422 with a ToolResult; only an API error body is thrown.
  if (!res.ok && err && typeof err.code === 'string' && !('status' in (parsed as object))) {
    throw new ApiError(res.status, err.code, err.message ?? `request failed (${res.status})`);
  }
  if (!res.ok && !parsed) throw new ApiError(res.status, 'HTTP', `request failed (${res.status})`);
  return parsed as RouteAnswer<K>;
}

type StreamKey = 'events' | 'spaceEvents';

/**
 * An event stream (EventSource cannot send headers, so the token goes as access_token). The
 * browser reconnects on its own, sending Last-Event-ID. Returns how to close it.
 */
export function stream<K extends StreamKey>(
  key: K,
  args: RouteArgs<K>,
  types: string[],
  onEvent: (type: string, data: unknown) => void,
  onState?: (open: boolean) => void,
): () => void {
  const t = token();
  const query = { ...(args.query ?? {}), ...(t ? { access_token: t } : {}) };
  const es = new EventSource(urlOf(key, { params: args.params, query }));
  for (const type of types) {
    es.addEventListener(type, (e) => {
      try {
        onEvent(type, JSON.parse((e as MessageEvent<string>).data));
      } catch {
        // A frame that is not JSON is not ours to show.
      }
    });
  }
  es.addEventListener('ready', () => onState?.(true));
  es.onerror = () => onState?.(false);
  return () => es.close();
}
