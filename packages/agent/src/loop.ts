// The agent loop: model -> tool calls -> results -> model, until the model stops asking for tools, a
// call ends the run, the turn limit is reached or the signal aborts. Where calls run is a ToolRunner:
// the executor in this process (runAgent) or a gateway over HTTP (runGatewayAgent).
import type { ToolResult } from '@toolbelt/core';
import { modelContent } from './content.js';
import type {
  AgentEvent,
  AgentMessage,
  AgentState,
  AssistantMessage,
  ModelProvider,
  ModelTool,
  ToolCallPart,
  ToolResultPart,
} from './types.js';

export interface ToolRunner {
  /** The tools the model is shown. */
  readonly tools: readonly ModelTool[];
  /** Runs one turn's calls, one result per call in their order; `context` is what the model said before them, else the task. */
  run(calls: readonly ToolCallPart[], context: string | undefined): Promise<ToolResult[]>;
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

export interface LoopOptions {
  runner: ToolRunner;
  model: ModelProvider;
  /** The conversation to go on from; it ends with the user's turn. */
  messages: readonly AgentMessage[];
  system?: string;
  /** Model turns at most (default 20). */
  maxTurns?: number;
  /** Characters of one tool result the model reads; beyond it the text is cut to head and tail (default 20,000). */
  maxResultChars?: number;
  signal?: AbortSignal;
  onEvent?: (event: AgentEvent) => void;
  /** Told of each state besides onEvent (runAgent puts thinking and idle on the executor's bus). */
  onState?: (state: AgentState) => void;
  /** A call after which the run ends without another model turn (the gateway's skip). */
  endsRun?: (call: ToolCallPart, result: ToolResult) => boolean;
  /** What an approver sees as the context of a call when the model said nothing before it. */
  task?: string;
}

export async function runLoop(opts: LoopOptions): Promise<AgentRun> {
  const messages: AgentMessage[] = [...opts.messages];
  if (!messages.length) throw new Error('the agent loop needs a prompt or messages to start from');
  const maxTurns = opts.maxTurns ?? 20;
  if (!Number.isInteger(maxTurns) || maxTurns < 1)
    throw new Error(`maxTurns must be a positive integer, not ${maxTurns}`);
  let turn = 0;
  let text = '';
  const usage = { inputTokens: 0, outputTokens: 0 };
  const done = (stop: RunStop): AgentRun => ({ messages, text, turns: turn, stop, usage });
  const state = (s: AgentState) => {
    opts.onEvent?.({ type: 'agent.state', state: s, turn });
    opts.onState?.(s);
  };
  try {
    for (;;) {
      if (opts.signal?.aborted) return done('aborted');
      if (turn >= maxTurns) return done('max_turns');
      turn++;
      state('thinking');
      const onText = (delta: string) => opts.onEvent?.({ type: 'text', delta, turn });
      const answer = await opts.model.turn({
        system: opts.system,
        messages,
        tools: opts.runner.tools,
        signal: opts.signal,
        onText,
      });
      messages.push(answer.message);
      text = answer.message.text;
      usage.inputTokens += answer.usage?.inputTokens ?? 0;
      usage.outputTokens += answer.usage?.outputTokens ?? 0;
      opts.onEvent?.({ type: 'assistant', message: answer.message, turn });
      if (!answer.message.toolCalls.length) return done('done');
      state('tool_execution');
      const { parts, ended } = await runToolCalls(opts, answer.message, turn);
      messages.push({ role: 'tool', results: parts });
      if (ended) return done('done');
    }
  } catch (err) {
    if (opts.signal?.aborted) return done('aborted');
    throw err;
  } finally {
    state('idle');
  }
}

async function runToolCalls(
  opts: LoopOptions,
  message: AssistantMessage,
  turn: number,
): Promise<{ parts: ToolResultPart[]; ended: boolean }> {
  const calls = message.toolCalls;
  for (const call of calls) opts.onEvent?.({ type: 'tool.call', call, turn });
  // What a person approving a call sees of the conversation: what the model said before it, else the task.
  const context = message.text.trim() || opts.task?.trim() || undefined;
  const results = await opts.runner.run(calls, context);
  const budget = opts.maxResultChars ?? 20_000;
  let ended = false;
  const parts = results.map((result, i) => {
    opts.onEvent?.({ type: 'tool.result', call: calls[i], result, turn });
    if (opts.endsRun?.(calls[i], result)) ended = true;
    return { callId: calls[i].id, name: calls[i].name, status: result.status, content: modelContent(result, budget) };
  });
  return { parts, ended };
}
