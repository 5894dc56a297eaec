// What flows through GET /api/events: core's vocabulary (ToolEvent) plus the gateway's own events
// about calls whose result comes from outside (seed 001) and the inbox.
import type { ToolEvent } from '@toolbelt/core';

interface Base {
  ts: number;
  sessionId: string;
  runId?: string;
  agentId?: string;
}

export type PendingEvent =
  /** A declared external/space tool waits for its result: an external executor should act. */
  | (Base & {
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
  | (Base & { type: 'pending.resolved'; callId: string; tool: string; previous: 'waiting' | 'pending' })
  | (Base & { type: 'pending.expired'; callId: string; tool: string })
  | (Base & { type: 'inbox.added'; messageId: number; callId: string; tool: string });

export type GatewayEvent = ToolEvent | PendingEvent;
export type GatewayEventType = GatewayEvent['type'];

export const EVENT_TYPES: readonly GatewayEventType[] = [
  'tool.call',
  'approval.requested',
  'approval.resolved',
  'tool.started',
  'tool.progress',
  'tool.output',
  'tool.result',
  'file.changed',
  'agent.state',
  'registry.changed',
  'pending.created',
  'pending.resolved',
  'pending.expired',
  'inbox.added',
];
