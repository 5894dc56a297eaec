// What one entry of the route table says, and the types a client reads off it: the path's
// parameters, the query, the body and the answer. Plain data and types only, so a page can import
// the table without a schema library or anything of Node.

export type Method = 'GET' | 'POST' | 'DELETE';
export type Role = 'call' | 'submit' | 'approve' | 'events' | 'person' | 'admin';

export interface QueryParam {
  /** list: comma-separated (or the parameter repeated); a client may send an array. */
  type: 'string' | 'integer' | 'boolean' | 'list';
  description: string;
  enum?: readonly string[];
  examples?: readonly string[];
}

/** The body a route reads and the answer it gives, as types only (the value is an empty object). */
export interface Io<Body, Answer> {
  readonly body?: Body;
  readonly answer?: Answer;
}

/** Declares a route's body and answer types: `io<CallBody, ToolResult>()`; `never` for no body. */
export const io = <Body, Answer>(): Io<Body, Answer> => ({});

export interface RouteSpec {
  method: Method;
  /** Hono's form: `/api/runs/:runId/tool-calls`. */
  path: string;
  /**
   * Who may call it: public (no token; the Host check still applies), token (any token: the route
   * checks more, e.g. membership), or the role it needs (any one of a list); admin may call all.
   */
  role: 'public' | 'token' | Role | readonly Role[];
  summary: string;
  description?: string;
  /** Descriptions of the path's parameters. */
  params?: Readonly<Record<string, string>>;
  query?: Readonly<Record<string, QueryParam>>;
  /** Request headers besides the token, by name. */
  headers?: Readonly<Record<string, string>>;
  /** The status of success; default 200. */
  status?: 200 | 201;
  /** What the answer is: JSON (default), a text page, an event stream, the console's HTML or an asset. */
  answer?: 'json' | 'text' | 'event-stream' | 'html' | 'asset';
  /** Other answers by status (besides 401 and 403, which every route with a token can give). */
  errors?: Readonly<Record<string, string>>;
  /** Answers with a ToolResult besides the success status (a call to an unknown tool: 404). */
  resultErrors?: Readonly<Record<string, string>>;
  io: Io<unknown, unknown>;
}

type ParamNames<P extends string> = P extends `${string}:${infer N}/${infer Rest}`
  ? N | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer N}`
    ? N
    : never;

/** The path's parameters: `{ runId: string }` for `/api/runs/:runId/tool-calls`. */
export type PathParams<P extends string> = { [N in ParamNames<P>]: string };

type QueryValue<Q extends QueryParam> = Q['type'] extends 'integer'
  ? number
  : Q['type'] extends 'boolean'
    ? boolean
    : Q['type'] extends 'list'
      ? string | readonly string[]
      : Q['enum'] extends readonly (infer E)[]
        ? E
        : string;

/** The query a route takes: every parameter optional. */
export type QueryOf<R extends RouteSpec> =
  R['query'] extends Readonly<Record<string, QueryParam>>
    ? { [N in keyof R['query']]?: QueryValue<R['query'][N]> | undefined }
    : Record<string, never>;

export type BodyOf<R extends RouteSpec> = Exclude<R['io']['body'], undefined>;
export type AnswerOf<R extends RouteSpec> = Exclude<R['io']['answer'], undefined>;
