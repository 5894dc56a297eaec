// What flows through GET /api/events: core's vocabulary (ToolEvent) plus the gateway's own events
// about calls whose result comes from outside and the inbox. The types are the wire contract's.
import type { GatewayEvent, GatewayEventType, PendingEvent } from '@toolbelt/protocol';

export type { GatewayEvent, GatewayEventType, PendingEvent };

// Every type once: an event added to the wire contract and not here is a compile error.
const TYPES: Record<GatewayEventType, true> = {
  'tool.call': true,
  'approval.requested': true,
  'approval.resolved': true,
  'input.requested': true,
  'input.answered': true,
  'tool.started': true,
  'tool.progress': true,
  'tool.output': true,
  'tool.result': true,
  'file.changed': true,
  'agent.state': true,
  'registry.changed': true,
  'pending.created': true,
  'pending.resolved': true,
  'pending.expired': true,
  'inbox.added': true,
  'space.message': true,
  'space.tool': true,
};
export const EVENT_TYPES: readonly GatewayEventType[] = Object.keys(TYPES) as GatewayEventType[];

/** The space an event belongs to, if any. */
export function spaceOf(e: GatewayEvent): string | undefined {
  return e.type === 'space.message' || e.type === 'space.tool' ? e.spaceId : undefined;
}
