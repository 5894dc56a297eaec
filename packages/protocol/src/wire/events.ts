// Events of GET /api/events: core's vocabulary plus the gateway's own, about calls whose result
// comes from outside, the inbox, tools' questions and spaces.
import type { ElicitationAnswer, ElicitationRequest, ToolEvent } from '@toolbelt/core';
import type { SpaceMessage } from './spaces.js';

interface EventBase {
  ts: number;
  sessionId: string;
  runId?: string;
  agentId?: string;
}

export type PendingEvent =
  /** A declared external/space tool waits for its result: an external executor should act. */
  | (EventBase & {
      type: 'pending.created';
      callId: string;
      tool: string;
      input: unknown;
      executionType: string;
      visible: boolean;
      /** waiting: the agent blocks up to the timeout; pending: the result goes to the inbox. */
      mode: 'waiting' | 'pending';
      expiresAt: number;
    })
  | (EventBase & { type: 'pending.resolved'; callId: string; tool: string; previous: 'waiting' | 'pending' })
  | (EventBase & { type: 'pending.expired'; callId: string; tool: string })
  | (EventBase & { type: 'inbox.added'; messageId: number; callId: string; tool: string })
  /** A tool asks a person a question (an MCP server's elicitation): answer with POST .../answer. */
  | (EventBase & { type: 'input.requested'; callId: string; tool: string; question: ElicitationRequest })
  | (EventBase & {
      type: 'input.answered';
      callId: string;
      tool: string;
      action: ElicitationAnswer['action'];
      by?: string;
    });

/**
 * Events of one space (also on GET /api/spaces/:spaceId/events, named there as the SDK names them:
 * message, tool.started, tool.streaming, tool.done, tool.error).
 */
export type SpaceEvent =
  /** A message was posted, or a tool message changed status (requires_action, complete, error). */
  | (EventBase & { type: 'space.message'; spaceId: string; message: SpaceMessage })
  | (EventBase & {
      type: 'space.tool';
      spaceId: string;
      phase: 'started' | 'done' | 'error';
      messageId: number;
      callId: string;
      tool: string;
      message: SpaceMessage;
    })
  | (EventBase & {
      type: 'space.tool';
      spaceId: string;
      phase: 'streaming';
      messageId: number;
      callId: string;
      tool: string;
      chunk: string;
    });

export type GatewayEvent = ToolEvent | PendingEvent | SpaceEvent;
export type GatewayEventType = GatewayEvent['type'];
/** An event as streamed: with its id, the resume point for Last-Event-ID. */
export type StreamedEvent = GatewayEvent & { id: number };
