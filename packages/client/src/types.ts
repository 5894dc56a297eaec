// The gateway's wire types, as an SDK user sees them.
import type { ApprovalDecision, ApprovalRequest, ToolEvent, ToolResult } from '@toolbelt/core';

export type CallStatus = 'running' | 'awaiting_approval' | 'waiting' | 'pending' | 'resolved' | 'expired' | 'success' | 'error' | 'rejected';

export interface CallRecord {
  seq: number;
  callId: string;
  runId: string;
  agentId: string;
  sessionId: string;
  tool: string;
  input: unknown;
  status: CallStatus;
  visible: boolean;
  approval?: ApprovalRequest;
  decision?: ApprovalDecision;
  submitted?: { result: unknown } | { error: string };
  result?: ToolResult;
  createdAt: number;
  updatedAt: number;
  expiresAt?: number;
  resolvedAt?: number;
}

export interface ToolInfo {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  effect: string;
  category?: string;
  visible: boolean;
  executionType?: 'gateway' | 'external' | 'space' | 'internal';
  isAsync?: boolean;
  timeout?: number;
}

export interface InboxMessage {
  id: number;
  agentId: string;
  runId: string;
  callId: string;
  tool: string;
  result?: unknown;
  error?: string;
  createdAt: number;
  ackedAt?: number;
}

export interface SubmitAnswer {
  callId: string;
  status: 'resolved';
  delivered: 'inline' | 'inbox';
  inboxMessageId?: number;
}

interface Base {
  ts: number;
  sessionId: string;
  runId?: string;
  agentId?: string;
}

export type PendingEvent =
  | (Base & { type: 'pending.created'; callId: string; tool: string; input: unknown; executionType: string; visible: boolean; mode: 'waiting' | 'pending'; expiresAt: number })
  | (Base & { type: 'pending.resolved'; callId: string; tool: string; previous: 'waiting' | 'pending' })
  | (Base & { type: 'pending.expired'; callId: string; tool: string })
  | (Base & { type: 'inbox.added'; messageId: number; callId: string; tool: string });

export type GatewayEvent = ToolEvent | PendingEvent;
/** An event as streamed: with its id, the resume point for Last-Event-ID. */
export type StreamedEvent = GatewayEvent & { id: number };
