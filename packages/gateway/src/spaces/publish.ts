// The events of a space: a message posted or changed, and a visible call's started, streaming, done
// and error. Stored like every event, so a space's stream replays after Last-Event-ID.
import type { SpaceEvent, SpaceMessage } from '@toolbelt/protocol';
import type { EventRecorder } from '../events/recorder.js';

export function publishMessage(recorder: EventRecorder, m: SpaceMessage, sessionId = m.senderId): void {
  recorder.publish({ type: 'space.message', ts: m.updatedAt, sessionId, spaceId: m.spaceId, message: m, ...ids(m) });
}

/** A visible call's message at a turn of its life: started when posted, then done or error. */
export function publishTool(recorder: EventRecorder, m: SpaceMessage, phase: 'started' | 'done' | 'error'): void {
  const event: SpaceEvent = {
    type: 'space.tool',
    phase,
    ts: m.updatedAt,
    sessionId: m.senderId,
    spaceId: m.spaceId,
    messageId: m.id,
    callId: m.callId!,
    tool: m.tool!,
    message: m,
    ...ids(m),
  };
  recorder.publish(event);
}

/** The settled message of a call: done when complete, error otherwise. */
export function publishSettled(recorder: EventRecorder, m: SpaceMessage | undefined): void {
  if (m) publishTool(recorder, m, m.status === 'complete' ? 'done' : 'error');
}

function ids(m: SpaceMessage): { agentId?: string; runId?: string } {
  return m.kind === 'tool_call'
    ? { agentId: m.senderId, ...(m.runId ? { runId: m.runId } : {}) }
    : m.senderKind === 'agent'
      ? { agentId: m.senderId }
      : {};
}

/** The name an event has on a space's stream: the gateway SDK's own vocabulary. */
export function spaceEventName(e: { type: string; phase?: string }): string {
  return e.type === 'space.tool' ? `tool.${e.phase}` : e.type === 'space.message' ? 'message' : e.type;
}
