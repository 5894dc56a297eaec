// runAgent: the agent loop with its calls through an Executor in this process. Every call goes
// through policy, approval and the log; the model is a handle tools may ask (ctx.llm).
import type { CallOrigin, CallRequest, Executor, ModelHandle, ToolFilter } from '@toolbelt/core';
import { runLoop, type AgentRun, type ToolRunner } from './loop.js';
import { modelHandle } from './model-handle.js';
import type { AgentEvent, AgentMessage, AgentState, ModelProvider, ToolCallPart } from './types.js';

export type { AgentRun, RunStop } from './loop.js';

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

export async function runAgent(opts: RunAgentOptions): Promise<AgentRun> {
  const messages: AgentMessage[] = [...(opts.messages ?? [])];
  if (opts.prompt !== undefined) messages.push({ role: 'user', content: opts.prompt });
  if (!messages.length) throw new Error('runAgent needs a prompt or messages to start from');
  const llm = modelHandle(opts.model);
  const runner: ToolRunner = {
    tools: opts.executor.registry.list(opts.tools ?? 'all'),
    // Through executor.runAll: consecutive reads run in parallel, anything else alone and in order.
    run: (calls, context) => opts.executor.runAll(calls.map((call) => request(opts, call, context, llm))),
  };
  return runLoop({
    runner,
    model: opts.model,
    messages,
    ...pick(opts),
    onState: (state) => busState(opts, state),
  });
}

function pick(opts: RunAgentOptions) {
  const { system, maxTurns, maxResultChars, signal, onEvent, prompt } = opts;
  return { system, maxTurns, maxResultChars, signal, onEvent, task: prompt };
}

function request(
  opts: RunAgentOptions,
  call: ToolCallPart,
  context: string | undefined,
  llm: ModelHandle,
): CallRequest {
  const req: CallRequest = {
    tool: call.name,
    input: call.input,
    origin: opts.origin ?? 'library',
    model: opts.model.model,
    llm,
  };
  if (context) req.context = context;
  if (opts.signal) req.signal = opts.signal;
  if (opts.sessionId) req.sessionId = opts.sessionId;
  if (opts.runId) req.runId = opts.runId;
  if (opts.agentId) req.agentId = opts.agentId;
  return req;
}

/** To the executor's event bus (the gateway's SSE, the MCP server's listeners). */
function busState(opts: RunAgentOptions, state: AgentState): void {
  const bus = opts.executor.events;
  // The executor says tool_execution and idle around its calls itself; the loop adds thinking, and idle when it ends.
  if (state !== 'tool_execution' && bus.active) {
    const ids = { ...(opts.runId ? { runId: opts.runId } : {}), ...(opts.agentId ? { agentId: opts.agentId } : {}) };
    bus.emit({ type: 'agent.state', state, ts: Date.now(), sessionId: opts.sessionId ?? 'default', ...ids });
  }
}
