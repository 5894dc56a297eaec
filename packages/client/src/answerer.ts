// Answering tools' questions over HTTP (an MCP server's elicitation during a gateway call): each
// question goes to a handler, whose answer is sent back. Returning undefined leaves it to a person.
import type { ElicitationRequest } from '@toolbelt/core';
import type { AnswerBody } from '@toolbelt/protocol';
import type { GatewayClient } from './client.js';
import { runWorker, type Worker, type WorkerOptions } from './worker.js';

export type QuestionHandler = (
  question: ElicitationRequest,
) => AnswerBody | undefined | Promise<AnswerBody | undefined>;

export function answerQuestionsWith(client: GatewayClient, handler: QuestionHandler, o: WorkerOptions = {}): Worker {
  const w = runWorker(
    client,
    { ...o, types: ['input.requested'] },
    (e) => (e.type === 'input.requested' ? e.callId : undefined),
    async () => {
      const { calls } = await client.calls({
        status: 'awaiting_input',
        limit: 500,
        ...(o.runId ? { runId: o.runId } : {}),
      });
      for (const c of calls) {
        if (o.agentIds && !o.agentIds.includes(c.agentId)) continue;
        if (c.question) w.track(handle(c.question));
      }
    },
    async (e) => {
      if (e.type === 'input.requested') await handle(e.question);
    },
  );
  async function handle(question: ElicitationRequest): Promise<void> {
    // A call may ask again after an answer: each question is its own (the call's id and its text).
    const key = `${question.callId}\n${question.message}`;
    if (w.seen.has(key)) return;
    w.seen.add(key);
    const answer = await handler(question);
    if (answer) await client.answerQuestion(question.callId, answer);
  }
  return { stop: w.stop, ready: w.ready };
}
