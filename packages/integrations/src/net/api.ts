// One HTTP client for every service: a timeout per attempt, core's retries (reset, 408, 429 with
// Retry-After, 5xx) and one mapping from a failed answer to a ToolError that says what to do.
import { ToolError } from '@toolbelt/core';
import { adviseFetch, describeCause, retryingFetch, withHttpRetries, type HttpRetryOptions } from '@toolbelt/core/net';

export interface ApiOptions {
  /** Named in errors ("Gmail"). */
  service: string;
  baseUrl: string;
  /** Headers for every request (an API key); called per attempt so a refreshed token is used. */
  headers?: (signal: AbortSignal) => Record<string, string> | Promise<Record<string, string>>;
  /** What the model should tell the user when the credential is refused (401/403). */
  credentialHint: string;
  /** Called once on a 401 (an access token that expired early): true when new credentials are in place and the request is worth sending again. */
  reauthorize?: (signal: AbortSignal) => Promise<boolean>;
  /** Per attempt. Default 30 s. */
  timeoutMs?: number;
  retry?: HttpRetryOptions;
  /** The largest answer read. Default 10 MB. */
  maxBytes?: number;
}

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Repeated keys for arrays (group_by[]=a&group_by[]=b). */
  query?: Record<string, string | number | boolean | (string | number)[] | undefined>;
  json?: unknown;
  form?: Record<string, string>;
  /** Extra headers for this request. */
  headers?: Record<string, string>;
  /** A request that must not run twice (sending mail): retried only after a 429, which the server did not act on. */
  once?: boolean;
}

/** The query string of a request: undefined values left out, arrays as repeated keys. */
export function queryString(query: ApiRequest['query'] = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

export class ApiClient {
  private readonly fetch: typeof fetch;
  private readonly fetchOnce: typeof fetch;

  constructor(readonly opts: ApiOptions) {
    const timeoutMs = opts.timeoutMs ?? 30_000;
    const attempt: typeof fetch = (input, init) => {
      const timeout = AbortSignal.timeout(timeoutMs);
      return fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout });
    };
    this.fetch = retryingFetch(attempt, opts.retry);
    // A reset or a 5xx may come after the server acted; only a 429 surely did not.
    this.fetchOnce = (input, init) =>
      withHttpRetries<Response>(
        {
          attempt: () => attempt(input, init),
          judge: (o) => ('value' in o && o.value.status === 429 ? adviseFetch(o) : undefined),
          discard: (res) => res.body?.cancel().catch(() => undefined),
          signal: init?.signal ?? null,
        },
        opts.retry,
      );
  }

  url(path: string, query?: ApiRequest['query']): string {
    const base = this.opts.baseUrl.endsWith('/') ? this.opts.baseUrl : `${this.opts.baseUrl}/`;
    return new URL(path.replace(/^\//, ''), base).href + queryString(query);
  }

  /** The answer's body as text; a failed answer becomes a ToolError. */
  async text(path: string, req: ApiRequest, signal: AbortSignal): Promise<string> {
    return this.body(await this.send(path, req, signal));
  }

  async json<T>(path: string, req: ApiRequest, signal: AbortSignal): Promise<T> {
    const text = await this.body(await this.send(path, req, signal));
    try {
      return (text ? JSON.parse(text) : {}) as T;
    } catch {
      throw new ToolError(
        'EXECUTION_FAILED',
        `${this.opts.service} answered with something that is not JSON; try again later`,
        { recoverable: true },
      );
    }
  }

  /** The response of a successful request (2xx); anything else throws a ToolError. */
  async send(path: string, req: ApiRequest, signal: AbortSignal): Promise<Response> {
    const res = await this.attempt(path, req, signal);
    if (res.ok) return res;
    // An access token can expire before its stated time (revoked, clock skew): renew it once.
    if (res.status === 401 && this.opts.reauthorize) {
      const detail = await res.text().catch(() => '');
      if (!(await this.opts.reauthorize(signal))) throw this.statusError(res, detail.slice(0, 300));
      return this.checked(await this.attempt(path, req, signal));
    }
    return this.checked(res);
  }

  /** The body as text, refused past maxBytes so one huge answer cannot exhaust memory. */
  private async body(res: Response): Promise<string> {
    const max = this.opts.maxBytes ?? 10 * 1024 * 1024;
    if (!res.body) return '';
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > max) {
        await res.body.cancel().catch(() => undefined);
        throw new ToolError(
          'EXECUTION_FAILED',
          `${this.opts.service} answered with more than ${max >= 1 << 20 ? `${Math.round(max / (1 << 20))} MB` : `${Math.ceil(max / 1024)} KB`}; ask for less`,
        );
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  private async checked(res: Response): Promise<Response> {
    if (res.ok) return res;
    const detail = (await res.text().catch(() => '')).slice(0, 300);
    throw this.statusError(res, detail);
  }

  private async attempt(path: string, req: ApiRequest, signal: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      ...(await this.opts.headers?.(signal)),
      ...req.headers,
    };
    let body: string | undefined;
    if (req.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(req.json);
    } else if (req.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(req.form).toString();
    }
    const url = this.url(path, req.query);
    try {
      return await (req.once ? this.fetchOnce : this.fetch)(url, {
        method: req.method ?? 'GET',
        headers,
        ...(body !== undefined ? { body } : {}),
        signal,
      });
    } catch (err) {
      throw this.networkError(err, url, signal);
    }
  }

  private networkError(err: unknown, url: string, signal: AbortSignal): ToolError {
    const { service, timeoutMs = 30_000 } = this.opts;
    if (signal.aborted) return new ToolError('ABORTED', `the ${service} request was cancelled`);
    if ((err as Error).name === 'TimeoutError')
      return new ToolError('TIMEOUT', `${service} did not answer within ${Math.round(timeoutMs / 1000)} s; try again`, {
        recoverable: true,
      });
    // Where it went without the query (it may carry ids), and why: "fetch failed" alone says neither.
    const where = url.split('?')[0];
    return new ToolError('EXECUTION_FAILED', `could not reach ${service} at ${where}: ${describeCause(err)}`, {
      recoverable: true,
    });
  }

  private statusError(res: Response, detail: string): ToolError {
    const { service, credentialHint } = this.opts;
    const said = errorMessageOf(detail);
    const suffix = said ? `: ${said}` : '';
    if (res.status === 401 || res.status === 403)
      return new ToolError(
        'PERMISSION_DENIED',
        `${service} refused the credentials (HTTP ${res.status}${suffix}); ${credentialHint}`,
      );
    if (res.status === 404)
      return new ToolError('NOT_FOUND', `${service} found nothing there (HTTP 404${suffix}); check the id`);
    if (res.status === 429) {
      const after = res.headers.get('retry-after');
      const wait = after ? ` (it asked for ${/^\d+$/.test(after) ? `${after} s` : `a pause until ${after}`})` : '';
      return new ToolError(
        'EXECUTION_FAILED',
        `${service} rate limit reached (HTTP 429)${wait}; wait, then try again`,
        { recoverable: true },
      );
    }
    if (res.status === 400)
      return new ToolError('INVALID_PARAMS', `${service} refused the request (HTTP 400${suffix}); fix the parameters`);
    return new ToolError('EXECUTION_FAILED', `${service} failed (HTTP ${res.status}${suffix})`, {
      recoverable: res.status >= 500,
    });
  }
}

/** The message of a JSON error body (Google's error.message, Anthropic's error.message), else the text. */
function errorMessageOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as {
      error?: { message?: string } | string;
      error_description?: string;
      message?: string;
    };
    if (typeof parsed.error === 'object' && parsed.error?.message) return parsed.error.message;
    if (parsed.error_description) return parsed.error_description;
    if (typeof parsed.error === 'string') return parsed.error;
    if (parsed.message) return parsed.message;
  } catch {
    // not JSON
  }
  return body
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
}
