// The loop's own vocabulary: a conversation any provider adapter can turn into its wire format.
import type { Tool, ToolResult, ToolStatus } from '@toolbelt/core';

export interface ToolCallPart {
  /** The provider's id for the call (Gemini's may be made up); tool results answer it. */
  id: string;
  name: string;
  input: unknown;
}

/** What the model reads of a tool result: text and images, cut to the loop's budget. */
export type ModelContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

export interface ToolResultPart {
  callId: string;
  name: string;
  status: ToolStatus;
  content: ModelContent[];
}

export interface UserMessage {
  role: 'user';
  content: string;
}

export interface AssistantMessage {
  role: 'assistant';
  text: string;
  toolCalls: ToolCallPart[];
  /** The provider's own form of this turn (thinking blocks, signatures), replayed to that provider as is. */
  native?: { provider: string; value: unknown };
}

export interface ToolMessage {
  role: 'tool';
  results: ToolResultPart[];
}

export type AgentMessage = UserMessage | AssistantMessage | ToolMessage;

/** What a model is shown of a tool: a core Tool is one, and so is a gateway's tool listing turned into one. */
export type ModelTool = Pick<Tool, 'name' | 'description' | 'jsonSchema'>;

export interface ModelRequest {
  system?: string;
  messages: readonly AgentMessage[];
  tools: readonly ModelTool[];
  signal?: AbortSignal;
  /** Most tokens in this answer, over the provider's own setting (a tool asking through ctx.llm). */
  maxTokens?: number;
  /** Streamed text, as it arrives. */
  onText?: (delta: string) => void;
}

export type StopReason = 'end' | 'tool_use' | 'max_tokens' | 'other';

export interface ModelTurn {
  message: AssistantMessage;
  stop: StopReason;
  usage?: { inputTokens?: number; outputTokens?: number };
}

/** One model behind one provider API: turns the conversation into a request, streams the answer back. */
export interface ModelProvider {
  readonly provider: string;
  readonly model: string;
  turn(request: ModelRequest): Promise<ModelTurn>;
}

export type AgentState = 'idle' | 'thinking' | 'tool_execution';

export type AgentEvent =
  | { type: 'agent.state'; state: AgentState; turn: number }
  | { type: 'text'; delta: string; turn: number }
  | { type: 'assistant'; message: AssistantMessage; turn: number }
  | { type: 'tool.call'; call: ToolCallPart; turn: number }
  | { type: 'tool.result'; call: ToolCallPart; result: ToolResult; turn: number };
