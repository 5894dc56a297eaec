// What a caller hands the executor for one call, and what explain() answers about it.
import type { Approver, CallOrigin } from '../approval.js';
import type { PolicyDecision } from '../policy/types.js';
import type { ToolResult } from '../result.js';
import type { ModelHandle } from '../model-handle.js';
import type { Classification, Effect } from '../tool.js';

export interface CallRequest {
  tool: string;
  input?: unknown;
  callId?: string;
  sessionId?: string;
  runId?: string;
  agentId?: string;
  model?: string;
  /** A model the tool may ask (ctx.llm): the caller's own, an agent loop's or an MCP client's sampling. */
  llm?: ModelHandle;
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * Where in the conversation the call comes from, in words (the task, or what the model said
   * before it): shown to the person asked to approve it, clipped to 500 characters.
   */
  context?: string;
  /** The front end the call came through; it picks the approver. Default `library`. */
  origin?: CallOrigin;
  /**
   * Asked about this call in place of its origin's approver: an agent framework whose own approval
   * flow has already asked the person hands their answer in here. The policy still decides first.
   */
  approver?: Approver;
}

export interface Explanation {
  tool: string;
  effect?: Effect;
  classification?: Classification;
  decision?: PolicyDecision;
  /** Set when the call would fail before policy (unknown tool, bad input). */
  error?: ToolResult['error'];
}
