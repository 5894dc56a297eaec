// The plain agent loop: model -> tool calls -> results -> model, until the model stops asking for
// tools, the turn limit is reached or the signal aborts. Every call goes through the Executor.
import type { CallOrigin, CallRequest, Executor, ToolFilter } from '@toolbelt/core';
import { modelContent } from './content.js';
import type { AgentEvent, AgentMessage, AgentState, AssistantMessage, ModelProvider, ToolCallPart, ToolResultPart } from './types.js';

export interface RunAgentOptions {
  executor: Executor;
  model: ModelProvider;
  /** Appended to `messages` as the user's turn. */
  prompt?: string;
  /** The conversation so far (a previous run's `messages` to continue it). */
  messages?: readonly AgentMessage[];
  system?: string;
  /** Which tools the model gets (default: all of the executor's). */
  tools?: ToolFilter;
  /** Model turns at most (default 20). */
  maxTurns?: number;
  /** Characters of one tool result the model reads; beyond it the text is cut to head and tail (default 20,000). */
  maxResultChars?: number;
  signal?: AbortSignal;
  onEvent?: (event: AgentEvent) => void;
  sessionId?: string;
  runId?: string;
  agentId?: string;
  /** Picks the executor's approver (default `library`; the CLI's chat uses `terminal`). */
  origin?: CallOrigin;
}

export type RunStop = 'done' | 'max_turns' | 'aborted';

export interface AgentRun {
  /** The whole conversation, the given messages included: pass it back as `messages` to continue. */
  messages: AgentMessage[];
  /** The model's text in its last turn. */
  text: string;
  turns: number;
  stop: RunStop;
  /** Tokens over every turn, as the provider counted them. */
  usage: { inputTokens: number; outputTokens: number };
}

export async function runAgent(opts: RunAgentOptions): Promise<AgentRun> {
  const messages: AgentMessage[] = [...(opts.messages ?? [])];
  if (opts.prompt !== undefined) messages.push({ role: 'user', content: opts.prompt });
  if (!messages.length) throw new Error('runAgent needs a prompt or messages to start from');
  const maxTurns = opts.maxTurns ?? 20;
  if (!Number.isInteger(maxTurns) || maxTurns < 1) throw new Error(`maxTurns must be a positive integer, not ${maxTurns}`);
  const tools = opts.executor.registry.list(opts.tools ?? 'all');
  let turn = 0;
  let text = '';
  const usage = { inputTokens: 0, outputTokens: 0 };
  const done = (stop: RunStop): AgentRun => ({ messages, text, turns: turn, stop, usage });
  try {
    for (;;) {
      if (opts.signal?.aborted) return done('aborted');
      if (turn >= maxTurns) return done('max_turns');
      turn++;
      setState(opts, 'thinking', turn);
      const onText = (delta: string) => opts.onEvent?.({ type: 'text', delta, turn });
      const answer = await opts.model.turn({ system: opts.system, messages, tools, signal: opts.signal, onText });
      messages.push(answer.message);
      text = answer.message.text;
      usage.inputTokens += answer.usage?.inputTokens ?? 0;
      usage.outputTokens += answer.usage?.outputTokens ?? 0;
      opts.onEvent?.({ type: 'assistant', message: answer.message, turn });
      if (!answer.message.toolCalls.length) return done('done');
      setState(opts, 'tool_execution', turn);
      messages.push({ role: 'tool', results: await runToolCalls(opts, answer.message, turn) });
    }
  } catch (err) {
    if (opts.signal?.aborted) return done('aborted');
    throw err;
  } finally {
    setState(opts, 'idle', turn);
  }
}

/** Through executor.runAll: consecutive reads run in parallel, anything else alone and in order. */
async function runToolCalls(opts: RunAgentOptions, message: AssistantMessage, turn: number): Promise<ToolResultPart[]> {
  const calls = message.toolCalls;
  for (const call of calls) opts.onEvent?.({ type: 'tool.call', call, turn });
  // What a person approving a call sees of the conversation: what the model said before it, else the task.
  const context = message.text.trim() || opts.prompt?.trim();
  const results = await opts.executor.runAll(calls.map((call) => request(opts, call, context)));
  const budget = opts.maxResultChars ?? 20_000;
  return results.map((result, i) => {
    opts.onEvent?.({ type: 'tool.result', call: calls[i], result, turn });
    return { callId: calls[i].id, name: calls[i].name, status: result.status, content: modelContent(result, budget) };
  });
}

function request(opts: RunAgentOptions, call: ToolCallPart, context: string | undefined): CallRequest {
  const req: CallRequest = { tool: call.name, input: call.input, origin: opts.origin ?? 'library', model: opts.model.model };
  if (context) req.context = context;
  if (opts.signal) req.signal = opts.signal;
  if (opts.sessionId) req.sessionId = opts.sessionId;
  if (opts.runId) req.runId = opts.runId;
  if (opts.agentId) req.agentId = opts.agentId;
  return req;
}

/** To the caller and to the executor's event bus (the gateway's SSE, the MCP server's listeners). */
function setState(opts: RunAgentOptions, state: AgentState, turn: number): void {
  opts.onEvent?.({ type: 'agent.state', state, turn });
  const bus = opts.executor.events;
  // The executor says tool_execution and idle around its calls itself; the loop adds thinking, and idle when it ends.
  if (state !== 'tool_execution' && bus.active) {
    const ids = { ...(opts.runId ? { runId: opts.runId } : {}), ...(opts.agentId ? { agentId: opts.agentId } : {}) };
    bus.emit({ type: 'agent.state', state, ts: Date.now(), sessionId: opts.sessionId ?? 'default', ...ids });
  }
}
