// What a token that approves, and is nothing more, may see: the calls waiting for a person, with
// what is needed to decide them. Not the agents' other calls, their spaces or their notes.
import type { ToolResult } from '@toolbelt/core';
import type { GatewayEvent, GatewayEventType } from '@toolbelt/protocol';
import { hasRole, type Principal } from './auth.js';

/**
 * A token with the approve role that is no agent (call), executor (submit) or admin. Its `events`
 * role, if any, streams what it approves; its `person` role, the spaces it is a member of.
 */
export function approverOnly(p: Principal): boolean {
  return p.roles.has('approve') && !hasRole(p, 'call') && !p.roles.has('submit');
}

/**
 * Reads only the calls that asked a person (an approval or a question): an approver, and a token
 * that is only a person in spaces. Agents (call), executors (submit) and event readers (events
 * without approve) read their agents' calls, admin every call.
 */
export function readsAskedCallsOnly(p: Principal): boolean {
  return !hasRole(p, 'call') && !p.roles.has('submit') && (p.roles.has('approve') || !p.roles.has('events'));
}

/** The events an approver streams: a person was asked, and the call was decided or ended. */
export const APPROVER_EVENTS: readonly GatewayEventType[] = [
  'approval.requested',
  'approval.resolved',
  'input.requested',
  'input.answered',
  'tool.result',
];

/** A call's end as an approver sees it: that it ended and how, not what it returned. */
export function forApprover(e: GatewayEvent): GatewayEvent {
  return e.type === 'tool.result' ? { ...e, result: withoutOutput(e.result) } : e;
}

function withoutOutput(r: ToolResult): ToolResult {
  const base = { callId: r.callId, tool: r.tool, durationMs: r.durationMs, content: [] };
  if (r.status === 'rejected') return { ...base, status: 'rejected', rejection: r.rejection };
  if (r.status === 'error')
    return {
      ...base,
      status: 'error',
      error: { code: r.error.code, message: 'the call failed', recoverable: r.error.recoverable },
    };
  return { ...base, status: r.status };
}
