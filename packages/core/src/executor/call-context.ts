// The ToolContext a tool receives.
import type { CallRequest } from './executor.js';
import type { Deadline } from './attempt.js';
import { Workspace, type SessionState, type ToolContext, type ToolEmit } from '../tool.js';

/** What a context needs from its executor. */
export interface ContextHost {
  readonly workspace: Workspace | undefined;
  session(id: string): SessionState;
  toolEmitted(tool: string, req: CallRequest, callId: string, e: ToolEmit): void;
}

/** A class rather than a literal: `signal` is a getter, so calls that never look at it never pay for one. */
export class CallContext implements ToolContext {
  readonly sessionId: string;
  readonly workspace: Workspace;
  readonly state: SessionState;
  readonly model?: string;

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
    this.state = executor.session(this.sessionId);
    if (req.model) this.model = req.model;
  }

  get signal(): AbortSignal {
    return this.deadline.signal;
  }

  emit(event: ToolEmit): void {
    this.executor.toolEmitted(this.tool, this.req, this.callId, event);
  }
}
