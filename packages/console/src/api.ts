// The gateway's HTTP API as the page uses it: the token kept in this tab's session storage.
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

/** One request; a refused one throws ApiError with the gateway's message. */
export async function api<T>(path: string, body?: unknown): Promise<T> {
  const init: RequestInit =
    body === undefined
      ? { headers: headers(false) }
      : { method: 'POST', headers: headers(true), body: JSON.stringify(body) };
  const res = await fetch(path, init);
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
  return parsed as T;
}

export function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/**
 * An event stream (EventSource cannot send headers, so the token goes as access_token). The
 * browser reconnects on its own, sending Last-Event-ID. Returns how to close it.
 */
export function stream(
  path: string,
  types: string[],
  onEvent: (type: string, data: unknown) => void,
  onState?: (open: boolean) => void,
): () => void {
  const t = token();
  const sep = path.includes('?') ? '&' : '?';
  const es = new EventSource(t ? `${path}${sep}access_token=${encodeURIComponent(t)}` : path);
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
