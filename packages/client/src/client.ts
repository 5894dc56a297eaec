// A small typed SDK over the gateway API: call and list tools, follow calls, inbox, approvals,
// and the event stream (spaces and agents: spaces.ts). Every request goes by route key through the
// route table (transport.ts), so no path is written here.
import type { ApprovalScope, ProviderFormat, ProviderTool, ToolResult } from '@toolbelt/core';
import type {
  AnswerBody,
  AnswerReply,
  CallBody,
  CallList,
  CallRecord,
  CallStatus,
  DecisionAnswer,
  HealthAnswer,
  InboxMessage,
  ProviderToolList,
  StreamedEvent,
  SubmitAnswer,
  ToolInfo,
  ToolList,
} from '@toolbelt/protocol';
import { approveWith, type ApprovalHandler } from './approver.js';
import { answerQuestionsWith, type QuestionHandler } from './answerer.js';
import { streamEvents, type EventStreamOptions, type Transport } from './events.js';
import { onToolCall, type ToolHandler } from './executor.js';
import { SpacesClient } from './spaces.js';
import type { Worker, WorkerOptions } from './worker.js';

export type { ClientOptions } from './transport.js';

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

export class GatewayClient extends SpacesClient implements Transport {
  health(): Promise<HealthAnswer> {
    return this.request('health');
  }

  async tools(): Promise<ToolInfo[]> {
    return ((await this.request('listTools')) as ToolList).tools;
  }

  /** Tool definitions in a provider's format, ready to hand to that provider's API. */
  async toolDefinitions<F extends ProviderFormat>(format: F): Promise<ProviderTool<F>[]> {
    return ((await this.request('listTools', { query: { format } })) as ProviderToolList<F>).tools;
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
    return this.request('callTool', { params: { runId }, body, accept: [404, 422], signal: o.signal });
  }

  /** Submits the result of an open call (an external executor, or a person in a space). */
  submitResult(runId: string, callId: string, result: unknown): Promise<SubmitAnswer> {
    return this.request('submitResult', { params: { runId }, body: { callId, result: result ?? null } });
  }

  /** Reports that an open call failed; the agent gets the message. */
  submitError(runId: string, callId: string, message: string): Promise<SubmitAnswer> {
    return this.request('submitResult', { params: { runId }, body: { callId, error: message } });
  }

  calls(f: CallFilter = {}): Promise<CallList> {
    const query = {
      runId: f.runId,
      agentId: f.agentId,
      status: f.status,
      tool: f.tool,
      limit: f.limit,
      before: f.before,
    };
    return this.request('listCalls', { query });
  }

  getCall(callId: string): Promise<CallRecord> {
    return this.request('getCall', { params: { callId } });
  }

  approve(callId: string, scope: ApprovalScope = 'once'): Promise<DecisionAnswer> {
    return this.request('approveCall', { params: { callId }, body: { scope } });
  }

  reject(callId: string, message?: string): Promise<DecisionAnswer> {
    return this.request('rejectCall', { params: { callId }, body: message ? { message } : {} });
  }

  /** Answers the question a call waits on (status awaiting_input): accept with values, decline or cancel. */
  answerQuestion(callId: string, body: AnswerBody): Promise<AnswerReply> {
    return this.request('answerQuestion', { params: { callId }, body });
  }

  async inbox(
    agentId: string,
    o: { after?: number; limit?: number; includeAcked?: boolean } = {},
  ): Promise<InboxMessage[]> {
    const query = { after: o.after, limit: o.limit, includeAcked: o.includeAcked };
    return (await this.request('readInbox', { params: { agentId }, query })).messages;
  }

  async ack(agentId: string, ids: number[]): Promise<number> {
    return (await this.request('ackInbox', { params: { agentId }, body: { ids } })).acknowledged;
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
