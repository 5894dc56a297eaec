// A small typed SDK over the gateway API: call and list tools, follow calls, inbox, approvals,
// and the event stream.
import type {
  AckAnswer,
  AckBody,
  ApprovalScope,
  ApproveBody,
  CallBody,
  CallList,
  CallRecord,
  CallStatus,
  DecisionAnswer,
  HealthAnswer,
  InboxList,
  InboxMessage,
  ProviderFormat,
  ProviderToolList,
  RejectBody,
  ResultBody,
  StreamedEvent,
  SubmitAnswer,
  ToolInfo,
  ToolList,
  ToolResult,
} from '@toolbelt/core';
import { approveWith, type ApprovalHandler } from './approver.js';
import { GatewayError } from './errors.js';
import { streamEvents, type EventStreamOptions, type Transport } from './events.js';
import { onToolCall, type ToolHandler } from './executor.js';
import type { Worker, WorkerOptions } from './worker.js';

export interface ClientOptions {
  /** Base URL of the gateway, e.g. http://127.0.0.1:7077. */
  url: string;
  token?: string;
  /** Agent used by call() when none is given. */
  agentId?: string;
  fetch?: typeof fetch;
}

export interface CallOptions {
  agentId?: string;
  callId?: string;
  sessionId?: string;
  model?: string;
  signal?: AbortSignal;
}

export interface CallFilter {
  runId?: string;
  agentId?: string;
  status?: CallStatus | CallStatus[];
  tool?: string;
  limit?: number;
  before?: number;
}

export class GatewayClient implements Transport {
  readonly fetch: typeof fetch;
  private readonly base: string;

  constructor(readonly options: ClientOptions) {
    this.base = options.url.replace(/\/+$/, '');
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  url(path: string, query: Record<string, string | number | boolean | undefined> = {}): string {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') q.set(k, String(v));
    const s = q.toString();
    return `${this.base}${path}${s ? `?${s}` : ''}`;
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...(this.options.token ? { authorization: `Bearer ${this.options.token}` } : {}), ...extra };
  }

  private async request<T>(
    method: string,
    path: string,
    opts: { body?: unknown; query?: Record<string, string | number | boolean | undefined>; signal?: AbortSignal; accept?: number[] } = {},
  ): Promise<T> {
    const res = await this.fetch(this.url(path, opts.query), {
      method,
      headers: this.headers(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    if (!res.ok && !opts.accept?.includes(res.status)) throw await GatewayError.from(res);
    return (await res.json()) as T;
  }

  health(): Promise<HealthAnswer> {
    return this.request('GET', '/healthz');
  }

  async tools(): Promise<ToolInfo[]> {
    return (await this.request<ToolList>('GET', '/api/tools')).tools;
  }

  /** Tool definitions in a provider's format, ready to hand to that provider's API. */
  async toolDefinitions(format: ProviderFormat): Promise<Record<string, unknown>[]> {
    return (await this.request<ProviderToolList>('GET', '/api/tools', { query: { format } })).tools;
  }

  /**
   * Calls a tool and returns its ToolResult, also for an unknown tool or bad input (status
   * "error", for the model to read). Throws GatewayError only when the request itself is refused.
   */
  call(runId: string, name: string, input: CallBody['input'] = {}, o: CallOptions = {}): Promise<ToolResult> {
    const agentId = o.agentId ?? this.options.agentId;
    if (!agentId) throw new TypeError('call() needs an agentId: pass it in the options or set agentId on the client');
    const body: CallBody = {
      agentId,
      name,
      input,
      ...(o.callId ? { callId: o.callId } : {}),
      ...(o.sessionId ? { sessionId: o.sessionId } : {}),
      ...(o.model ? { model: o.model } : {}),
    };
    return this.request('POST', `/api/runs/${encodeURIComponent(runId)}/tool-calls`, { body, accept: [404, 422], ...(o.signal ? { signal: o.signal } : {}) });
  }

  /** Submits the result of an open call (an external executor, or a person in a space). */
  submitResult(runId: string, callId: string, result: unknown): Promise<SubmitAnswer> {
    const body: ResultBody = { callId, result: result ?? null };
    return this.request('POST', `/api/runs/${encodeURIComponent(runId)}/tool-results`, { body });
  }

  /** Reports that an open call failed; the agent gets the message. */
  submitError(runId: string, callId: string, message: string): Promise<SubmitAnswer> {
    const body: ResultBody = { callId, error: message };
    return this.request('POST', `/api/runs/${encodeURIComponent(runId)}/tool-results`, { body });
  }

  calls(f: CallFilter = {}): Promise<CallList> {
    const status = Array.isArray(f.status) ? f.status.join(',') : f.status;
    return this.request('GET', '/api/tool-calls', { query: { runId: f.runId, agentId: f.agentId, status, tool: f.tool, limit: f.limit, before: f.before } });
  }

  getCall(callId: string): Promise<CallRecord> {
    return this.request('GET', `/api/tool-calls/${encodeURIComponent(callId)}`);
  }

  approve(callId: string, scope: ApprovalScope = 'once'): Promise<DecisionAnswer> {
    const body: ApproveBody = { scope };
    return this.request('POST', `/api/tool-calls/${encodeURIComponent(callId)}/approve`, { body });
  }

  reject(callId: string, message?: string): Promise<DecisionAnswer> {
    const body: RejectBody = message ? { message } : {};
    return this.request('POST', `/api/tool-calls/${encodeURIComponent(callId)}/reject`, { body });
  }

  async inbox(agentId: string, o: { after?: number; limit?: number; includeAcked?: boolean } = {}): Promise<InboxMessage[]> {
    const query = { after: o.after, limit: o.limit, includeAcked: o.includeAcked ? 'true' : undefined };
    return (await this.request<InboxList>('GET', `/api/agents/${encodeURIComponent(agentId)}/inbox`, { query })).messages;
  }

  async ack(agentId: string, ids: number[]): Promise<number> {
    const body: AckBody = { ids };
    return (await this.request<AckAnswer>('POST', `/api/agents/${encodeURIComponent(agentId)}/inbox/ack`, { body })).acknowledged;
  }

  /** Events as an async iterator; reconnects with Last-Event-ID. Break out of the loop (or abort) to stop. */
  events(o: EventStreamOptions = {}): AsyncGenerator<StreamedEvent> {
    return streamEvents(this, o);
  }

  /** Acts as the external executor of a declared tool: runs `handler` for each of its calls and submits the result. */
  onToolCall(name: string, handler: ToolHandler, o: WorkerOptions = {}): Worker {
    return onToolCall(this, name, handler, o);
  }

  /** Acts as an approver: `handler` answers each approval request (undefined leaves it to others). */
  approveWith(handler: ApprovalHandler, o: WorkerOptions = {}): Worker {
    return approveWith(this, handler, o);
  }
}
