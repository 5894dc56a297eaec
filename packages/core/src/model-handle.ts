// A model a tool may ask, where one is present: the agent loop's provider (@toolbelt/agent), or the
// model of an MCP client that offers sampling (@toolbelt/mcp). Core states the shape only; whoever
// holds a model implements it, so core knows no provider and no protocol.

export interface ModelMessage {
  role: 'user' | 'assistant';
  text: string;
}

export interface ModelQuestion {
  /** The question, or a conversation that ends with the user's turn. */
  messages: string | readonly ModelMessage[];
  system?: string;
  /** Most tokens in the answer (default: the side's own; MCP sampling, which needs a number, asks for 1024). */
  maxTokens?: number;
  /** Ends the question early; inside a tool call the call's own signal applies as well. */
  signal?: AbortSignal;
}

export interface ModelAnswer {
  text: string;
  /** The model that answered, as its side names it. */
  model: string;
}

export interface ModelHandle {
  /** The model's id, when the side holding it knows it before asking (an MCP client picks its own). */
  readonly name?: string;
  ask(question: ModelQuestion): Promise<ModelAnswer>;
}

export const DEFAULT_MAX_TOKENS = 1024;

/** The question's messages as a list: a string is one user message. */
export function questionMessages(q: ModelQuestion): ModelMessage[] {
  return typeof q.messages === 'string' ? [{ role: 'user', text: q.messages }] : [...q.messages];
}

/** The handle with asks bounded by `signal` too (a tool call's), so no ask outlives its call. */
export function boundModel(handle: ModelHandle, signal: AbortSignal): ModelHandle {
  return {
    ...(handle.name ? { name: handle.name } : {}),
    ask: (q) => handle.ask({ ...q, signal: q.signal ? AbortSignal.any([q.signal, signal]) : signal }),
  };
}
