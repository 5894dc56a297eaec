// The model of an MCP client that offers sampling, as a handle a tool may ask (ctx.llm) during a
// call that client made: sampling/createMessage, related to the call's request so the client can
// show it with the call (and let its user review it, as the specification recommends).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_MAX_TOKENS, questionMessages, type ModelHandle } from '@toolbelt/core';

// The client's user may review the request first; the call's own deadline and signal end the wait.
const NO_SDK_TIMEOUT = 24 * 60 * 60_000;

/** The client's model, or undefined when the client did not declare the sampling capability. */
export function samplingModel(server: Server, requestId: RequestId): ModelHandle | undefined {
  if (!server.getClientCapabilities()?.sampling) return undefined;
  return {
    async ask(q) {
      const result = await server.createMessage(
        {
          messages: questionMessages(q).map((m) => ({
            role: m.role,
            content: { type: 'text' as const, text: m.text },
          })),
          maxTokens: q.maxTokens ?? DEFAULT_MAX_TOKENS,
          ...(q.system ? { systemPrompt: q.system } : {}),
        },
        { relatedRequestId: requestId, timeout: NO_SDK_TIMEOUT, ...(q.signal ? { signal: q.signal } : {}) },
      );
      if (result.content.type !== 'text')
        throw new Error(
          `the MCP client's model (${result.model}) answered with ${result.content.type} content, not text`,
        );
      return { text: result.content.text, model: result.model };
    },
  };
}
