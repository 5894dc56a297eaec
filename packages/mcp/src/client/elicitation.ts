// An upstream server that asks its user a question (elicitation/create) during a tool call: the
// question goes to the person behind that call's front end (ctx.elicit), one person in one place.
// Defaults the person left out are filled in by the SDK (applyDefaults, SEP-1034).
import type { ElicitationAnswer, ElicitationSchema, Question } from '@toolbelt/core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';

/** How a call in flight asks its person: the proxied call's ctx.elicit. */
export type Asker = (question: Question) => Promise<ElicitationAnswer>;

/** What toolbelt's client tells servers it can do: form elicitation, with defaults applied. */
export const CLIENT_CAPABILITIES = { elicitation: { form: { applyDefaults: true } } } as const;

/**
 * Answers the server's elicitation requests through `current()`, the asker of the call in flight
 * (the latest, when several are: the protocol does not say which call a question belongs to). A
 * question while no call runs has nobody to ask and is declined.
 */
export function answerElicitations(
  client: Client,
  server: string,
  current: () => Asker | undefined,
  log?: (line: string) => void,
): void {
  client.setRequestHandler(ElicitRequestSchema, async (request): Promise<ElicitResult> => {
    const params = request.params;
    if (params.mode === 'url' || !('requestedSchema' in params)) return { action: 'decline' };
    const ask = current();
    if (!ask) {
      log?.(`elicitation outside a tool call declined: ${params.message}`);
      return { action: 'decline' };
    }
    const answer = await ask({
      source: `MCP server "${server}"`,
      message: params.message,
      schema: params.requestedSchema as ElicitationSchema,
    });
    return answer.action === 'accept' ? { action: 'accept', content: answer.content } : { action: answer.action };
  });
}
