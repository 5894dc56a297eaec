// One event vocabulary for the library, SSE and MCP progress. See docs/architecture.md for how
// the event names of the agent-loop and gateway designs map onto it.
import type { ApprovalDecision, ApprovalRequest } from './approval.js';
import type { ApprovedBy, ToolResult } from './result.js';
import type { Effect } from './tool.js';

interface Base {
  /** Milliseconds since the epoch. */
  ts: number;
  sessionId: string;
  runId?: string;
  agentId?: string;
}

export type ToolEvent =
  | (Base & {
      type: 'tool.call';
      callId: string;
      tool: string;
      input: unknown;
      effect: Effect;
      requiresApproval: boolean;
    })
  | (Base & { type: 'approval.requested'; callId: string; tool: string; request: ApprovalRequest })
  | (Base & {
      type: 'approval.resolved';
      callId: string;
      tool: string;
      decision: ApprovalDecision;
      approvedBy?: ApprovedBy;
    })
  | (Base & { type: 'tool.started'; callId: string; tool: string; attempt: number })
  | (Base & {
      type: 'tool.progress';
      callId: string;
      tool: string;
      progress?: number;
      total?: number;
      message?: string;
    })
  | (Base & { type: 'tool.output'; callId: string; tool: string; stream: 'stdout' | 'stderr'; chunk: string })
  | (Base & { type: 'tool.result'; callId: string; tool: string; result: ToolResult })
  | (Base & { type: 'file.changed'; callId: string; tool: string; path: string; operation: string })
  | (Base & { type: 'agent.state'; state: 'thinking' | 'tool_execution' | 'idle' })
  | (Base & { type: 'registry.changed'; change: 'added' | 'removed' | 'replaced'; name: string });

export type ToolEventType = ToolEvent['type'];
export type ToolEventOf<T extends ToolEventType> = Extract<ToolEvent, { type: T }>;
type Listener = (event: ToolEvent) => void;

export class EventBus {
  private readonly listeners = new Set<Listener>();

  /** True when someone listens: lets hot paths skip building events nobody reads. */
  get active(): boolean {
    return this.listeners.size > 0;
  }

  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onType<T extends ToolEventType>(type: T, listener: (event: ToolEventOf<T>) => void): () => void {
    return this.on((e) => {
      if (e.type === type) listener(e as ToolEventOf<T>);
    });
  }

  emit(event: ToolEvent): void {
    for (const l of this.listeners) {
      try {
        l(event);
      } catch {
        // A broken listener must never break a tool call.
      }
    }
  }
}
