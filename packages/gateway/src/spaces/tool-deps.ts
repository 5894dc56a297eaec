// What the gateway's built-in tools share: the store, the event recorder, and who made a call.
import { ToolError } from '@toolbelt/core';
import type { CallInfo } from '../declared/pending.js';
import type { EventRecorder } from '../events/recorder.js';
import type { GatewayStore } from '../store/index.js';

export interface BuiltinDeps {
  store: GatewayStore;
  recorder: EventRecorder;
  callInfo(callId: string): CallInfo | undefined;
}

/** The agent making this call; these tools only work for calls made through the gateway API. */
export function agentOf(deps: BuiltinDeps, tool: string, callId: string): CallInfo {
  const info = deps.callInfo(callId);
  if (!info)
    throw new ToolError(
      'EXECUTION_FAILED',
      `${tool} acts for the calling agent, so it can only be called through POST /api/runs/:runId/tool-calls`,
    );
  return info;
}

/** A JSON answer for the model. */
export function json(value: unknown): { content: [{ type: 'json'; json: unknown }]; structured: unknown } {
  return { content: [{ type: 'json', json: value }], structured: value };
}
