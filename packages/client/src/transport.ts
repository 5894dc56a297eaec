// The client's one way to the gateway: a typed request by route key, built from the route table of
// @toolbelt/protocol (the way Hono's `hc` types a client from one declaration). The key gives the
// method and the path; the path's parameters, the query and the body are checked against the
// route's types at compile time, and the answer comes back typed.
import {
  queryString,
  ROUTES,
  routeUrl,
  type RouteAnswer,
  type RouteArgs,
  type RouteKey,
  type RouteParams,
} from '@toolbelt/protocol/routes';
import { GatewayError, reachingFetch } from './errors.js';

export interface ClientOptions {
  /** Base URL of the gateway, e.g. http://127.0.0.1:7077. */
  url: string;
  token?: string;
  /** Agent used by call() when none is given. */
  agentId?: string;
  fetch?: typeof fetch;
}

/** A request's arguments: the route's params, query and body, and how to send it. */
export type RequestArgs<K extends RouteKey> = RouteArgs<K> & {
  signal?: AbortSignal | undefined;
  /** Statuses besides 2xx whose body is the answer (a call to an unknown tool: 404 with its ToolResult). */
  accept?: number[];
};

/** No argument needed when the route takes neither path parameters nor a body. */
type ArgsOf<K extends RouteKey> = object extends RequestArgs<K> ? [args?: RequestArgs<K>] : [args: RequestArgs<K>];

export class ClientBase {
  readonly fetch: typeof fetch;
  protected readonly base: string;

  constructor(readonly options: ClientOptions) {
    this.base = options.url.replace(/\/+$/, '');
    this.fetch = reachingFetch(this.base, options.fetch ?? globalThis.fetch.bind(globalThis));
  }

  /** The URL of a route, or of a path with a query (the event streams). */
  url(path: string, query: Record<string, string | number | boolean | undefined> = {}): string {
    return this.base + path + queryString(query);
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...(this.options.token ? { authorization: `Bearer ${this.options.token}` } : {}), ...extra };
  }

  /** Sends route `key`; throws GatewayError when it is refused. */
  async request<K extends RouteKey>(key: K, ...[args]: ArgsOf<K>): Promise<RouteAnswer<K>> {
    const a = (args ?? {}) as RequestArgs<K>;
    const body = a.body as unknown;
    const params = a.params as RouteParams<K> | undefined;
    const res = await this.fetch(this.base + routeUrl(key, { ...(params ? { params } : {}), query: a.query }), {
      method: ROUTES[key].method,
      headers: this.headers(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      ...(a.signal ? { signal: a.signal } : {}),
    });
    if (!res.ok && !a.accept?.includes(res.status)) throw await GatewayError.from(res);
    return (await res.json()) as RouteAnswer<K>;
  }
}
