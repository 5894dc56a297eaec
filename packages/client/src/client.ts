// A small typed SDK over the gateway API: call and list tools, follow calls, inbox, approvals,
// and the event stream.
import type { ApprovalScope, ProviderFormat, ProviderTool, ToolResult } from '@toolbelt/core';
import type {
  AckAnswer,
  AckBody,
  AgentPrompt,
  AnswerBody,
  AnswerReply,
  ApproveBody,
  CallBody,
  CallList,
  CallRecord,
  CallStatus,
  DecisionAnswer,
  HealthAnswer,
  InboxList,
  InboxMessage,
  ProviderToolList,
  RejectBody,
  ResultBody,
  StreamedEvent,
  SubmitAnswer,
  ToolInfo,
  ToolList,
  CycleAnswer,
  CycleDoneAnswer,
  CycleHeartbeatAnswer,
  MemberBody,
  MemberKind,
  MemberList,
  MessageBody,
  MessageList,
  NoteKind,
  NoteList,
  PostAnswer,
  Space,
  SpaceBody,
  SpaceList,
  SpaceMember,
  SpaceMessage,
} from '@toolbelt/protocol';
import { cycles, type Cycle, type CycleOptions } from './cycles.js';
import { approveWith, type ApprovalHandler } from './approver.js';
import { answerQuestionsWith, type QuestionHandler } from './answerer.js';
import { GatewayError, reachingFetch } from './errors.js';
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
  /** Where in the conversation the call comes from: shown to whoever approves it. */
  context?: string;
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
    this.fetch = reachingFetch(this.base, options.fetch ?? globalThis.fetch.bind(globalThis));
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
    opts: {
      body?: unknown;
      query?: Record<string, string | number | boolean | undefined>;
      signal?: AbortSignal;
      accept?: number[];
    } = {},
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
  async toolDefinitions<F extends ProviderFormat>(format: F): Promise<ProviderTool<F>[]> {
    return (await this.request<ProviderToolList<F>>('GET', '/api/tools', { query: { format } })).tools;
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
      ...(o.context ? { context: o.context } : {}),
    };
    return this.request('POST', `/api/runs/${encodeURIComponent(runId)}/tool-calls`, {
      body,
      accept: [404, 422],
      ...(o.signal ? { signal: o.signal } : {}),
    });
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
    return this.request('GET', '/api/tool-calls', {
      query: { runId: f.runId, agentId: f.agentId, status, tool: f.tool, limit: f.limit, before: f.before },
    });
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

  /** Answers the question a call waits on (status awaiting_input): accept with values, decline or cancel. */
  answerQuestion(callId: string, body: AnswerBody): Promise<AnswerReply> {
    return this.request('POST', `/api/tool-calls/${encodeURIComponent(callId)}/answer`, { body });
  }

  async inbox(
    agentId: string,
    o: { after?: number; limit?: number; includeAcked?: boolean } = {},
  ): Promise<InboxMessage[]> {
    const query = { after: o.after, limit: o.limit, includeAcked: o.includeAcked ? 'true' : undefined };
    return (await this.request<InboxList>('GET', `/api/agents/${encodeURIComponent(agentId)}/inbox`, { query }))
      .messages;
  }

  async ack(agentId: string, ids: number[]): Promise<number> {
    const body: AckBody = { ids };
    return (await this.request<AckAnswer>('POST', `/api/agents/${encodeURIComponent(agentId)}/inbox/ack`, { body }))
      .acknowledged;
  }

  createSpace(name: string, id?: string): Promise<Space> {
    const body: SpaceBody = id ? { name, id } : { name };
    return this.request('POST', '/api/spaces', { body });
  }

  async spaces(): Promise<Space[]> {
    return (await this.request<SpaceList>('GET', '/api/spaces')).spaces;
  }

  async members(spaceId: string): Promise<SpaceMember[]> {
    return (await this.request<MemberList>('GET', `/api/spaces/${encodeURIComponent(spaceId)}/members`)).members;
  }

  async addMember(spaceId: string, memberId: string, kind: MemberKind): Promise<SpaceMember[]> {
    const body: MemberBody = { memberId, kind };
    return (await this.request<MemberList>('POST', `/api/spaces/${encodeURIComponent(spaceId)}/members`, { body }))
      .members;
  }

  async removeMember(spaceId: string, memberId: string): Promise<SpaceMember[]> {
    const path = `/api/spaces/${encodeURIComponent(spaceId)}/members/${encodeURIComponent(memberId)}`;
    return (await this.request<MemberList>('DELETE', path)).members;
  }

  /** Posts a text message as `senderId`; every other agent member gets it in its inbox. */
  postMessage(spaceId: string, senderId: string, text: string): Promise<PostAnswer> {
    const body: MessageBody = { senderId, text };
    return this.request('POST', `/api/spaces/${encodeURIComponent(spaceId)}/messages`, { body });
  }

  /** Messages oldest first, from offset (default 0). */
  messages(spaceId: string, o: { offset?: number; limit?: number } = {}): Promise<MessageList> {
    return this.request('GET', `/api/spaces/${encodeURIComponent(spaceId)}/messages`, {
      query: { offset: o.offset, limit: o.limit },
    });
  }

  /** A person's answer to a space tool's message (status requires_action) in that space. */
  answer(message: Pick<SpaceMessage, 'spaceId' | 'callId' | 'runId'>, result: unknown): Promise<SubmitAnswer> {
    if (!message.callId || !message.runId)
      throw new TypeError('answer() takes a tool call message (one with callId and runId)');
    const body: ResultBody = { callId: message.callId, result: result ?? null, spaceId: message.spaceId };
    return this.request('POST', `/api/runs/${encodeURIComponent(message.runId)}/tool-results`, { body });
  }

  /** A space's events (message, tool.started, tool.streaming, tool.done, tool.error); reconnects with Last-Event-ID. */
  spaceEvents(
    spaceId: string,
    o: Omit<EventStreamOptions, 'runId' | 'agentIds' | 'types'> = {},
  ): AsyncGenerator<StreamedEvent> {
    return streamEvents(this, { ...o, path: `/api/spaces/${encodeURIComponent(spaceId)}/events` });
  }

  /** An agent's goals, memories or plans. */
  async notes(agentId: string, kind: NoteKind): Promise<NoteList['notes']> {
    return (await this.request<NoteList>('GET', `/api/agents/${encodeURIComponent(agentId)}/${kind}`)).notes;
  }

  /** The system-prompt fragment for a model driving the agent (the rules, its spaces, notes), made fresh now. */
  agentPrompt(agentId: string): Promise<AgentPrompt> {
    return this.request('GET', `/api/agents/${encodeURIComponent(agentId)}/prompt`);
  }

  /** Takes the agent's unread inbox as one think cycle, waiting up to waitMs for a first message. */
  takeCycle(agentId: string, o: { waitMs?: number; limit?: number; signal?: AbortSignal } = {}): Promise<CycleAnswer> {
    const path = `/api/agents/${encodeURIComponent(agentId)}/cycles`;
    return this.request('POST', path, {
      query: { wait: o.waitMs, limit: o.limit },
      ...(o.signal ? { signal: o.signal } : {}),
    });
  }

  finishCycle(agentId: string, cycleId: string): Promise<CycleDoneAnswer> {
    return this.request(
      'POST',
      `/api/agents/${encodeURIComponent(agentId)}/cycles/${encodeURIComponent(cycleId)}/done`,
    );
  }

  /** Extends a cycle's lease, so a long cycle keeps its messages (the cycles() loop does this for you). */
  heartbeatCycle(agentId: string, cycleId: string): Promise<CycleHeartbeatAnswer> {
    return this.request(
      'POST',
      `/api/agents/${encodeURIComponent(agentId)}/cycles/${encodeURIComponent(cycleId)}/heartbeat`,
    );
  }

  /** One agent: its think cycles as an async iterator, and its notes. */
  agent(agentId: string): {
    id: string;
    cycles(o?: CycleOptions): AsyncGenerator<Cycle>;
    notes(kind: NoteKind): Promise<NoteList['notes']>;
  } {
    return { id: agentId, cycles: (o) => cycles(this, agentId, o), notes: (kind) => this.notes(agentId, kind) };
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

  /** Answers tools' questions: `handler` returns the answer to each (undefined leaves it to a person). */
  answerQuestionsWith(handler: QuestionHandler, o: WorkerOptions = {}): Worker {
    return answerQuestionsWith(this, handler, o);
  }
}
