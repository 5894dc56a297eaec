// The ToolContext a tool receives.
import type { CallRequest } from './executor.js';
import type { Deadline } from './attempt.js';
import type { ElicitationAnswer, Elicitor } from '../elicitation.js';
import { boundModel, type ModelHandle } from '../model-handle.js';
import {
  Workspace,
  type Question,
  type SessionState,
  type ToolConfig,
  type ToolContext,
  type ToolEmit,
} from '../tool.js';

/** What a context needs from its executor. */
export interface ContextHost {
  readonly workspace: Workspace | undefined;
  session(id: string): SessionState;
  toolEmitted(tool: string, req: CallRequest, callId: string, e: ToolEmit): void;
  /** The elicitor of the call's origin. */
  readonly elicit: Elicitor;
  /** The config section the embedder gives this tool, frozen. */
  toolConfig(tool: string): ToolConfig | undefined;
}

/** A class rather than a literal: `signal` is a getter, so calls that never look at it never pay for one. */
export class CallContext implements ToolContext {
  readonly sessionId: string;
  readonly workspace: Workspace;
  readonly state: SessionState;
  readonly model?: string;
  /** Milliseconds spent waiting for a person to answer the tool's questions (kept out of its latency). */
  waitedMs = 0;

  constructor(
    private readonly executor: ContextHost,
    readonly tool: string,
    private readonly req: CallRequest,
    readonly callId: string,
    private readonly deadline: Deadline,
  ) {
    this.sessionId = req.sessionId ?? 'default';
    // An executor made without a workspace still gives one: it refuses every path (see NoWorkspace).
    const ws = executor.workspace ?? Workspace.none();
    this.workspace = ws.forTool ? ws.forTool(tool) : ws;
    // One agent's session state (what it has read) is never another's, whatever session id it sends.
    this.state = executor.session(req.agentId === undefined ? this.sessionId : `${req.agentId}\u0000${this.sessionId}`);
    if (req.model) this.model = req.model;
  }

  /** Looked up when a tool reads it, so calls that never do pay nothing. */
  get config(): ToolConfig | undefined {
    return this.executor.toolConfig(this.tool);
  }

  get llm(): ModelHandle | undefined {
    return this.req.llm && boundModel(this.req.llm, this.signal);
  }

  get signal(): AbortSignal {
    return this.deadline.signal;
  }

  emit(event: ToolEmit): void {
    this.executor.toolEmitted(this.tool, this.req, this.callId, event);
  }

  elicit(question: Question): Promise<ElicitationAnswer> {
    const request = {
      ...question,
      callId: this.callId,
      sessionId: this.sessionId,
      tool: this.tool,
      origin: this.req.origin ?? 'library',
      ...(this.req.runId ? { runId: this.req.runId } : {}),
      ...(this.req.agentId ? { agentId: this.req.agentId } : {}),
    };
    const asked = performance.now();
    const answer = this.executor.elicit(request, this.signal);
    const done = () => void (this.waitedMs += performance.now() - asked);
    answer.then(done, done);
    return answer;
  }
}
