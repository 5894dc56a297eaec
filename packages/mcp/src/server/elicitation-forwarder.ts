// Questions from tools (an upstream MCP server's elicitation) for calls that came from an MCP client
// of toolbelt: asked through that client's elicitation, related to the call's request, so the one
// person who made the call answers it where they are. A client without elicitation declines.
import { withDefaults, type ElicitationAnswer, type Elicitor } from '@toolbelt/core';
import type { McpCaller } from './elicitation-approver.js';

// A person may take a while; the call's own deadline and signal end the wait.
const NO_SDK_TIMEOUT = 24 * 60 * 60_000;

export function elicitationForwarder(callerOf: (callId: string) => McpCaller | undefined): Elicitor {
  return async (request, signal): Promise<ElicitationAnswer> => {
    const origin = callerOf(request.callId);
    if (!origin?.server.getClientCapabilities()?.elicitation?.form) return { action: 'decline' };
    const answer = await origin.server.elicitInput(
      { mode: 'form', message: `${request.source} asks: ${request.message}`, requestedSchema: request.schema as never },
      { signal, relatedRequestId: origin.requestId, timeout: NO_SDK_TIMEOUT },
    );
    if (answer.action !== 'accept') return { action: answer.action };
    return {
      action: 'accept',
      content: withDefaults(
        request.schema,
        (answer.content ?? {}) as Record<string, string | number | boolean | string[]>,
      ),
    };
  };
}
