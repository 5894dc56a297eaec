// Tools' questions waiting for a person (an MCP server's elicitation during a call), live, like
// the approval requests beside them.
import type { ElicitationRequest } from '@toolbelt/core';
import { useWaiting, type Waiting, type WaitingSource } from './use-waiting.js';

export interface Question {
  callId: string;
  agentId?: string;
  runId?: string;
  question: ElicitationRequest;
}

const QUESTIONS: WaitingSource<Question> = {
  status: 'awaiting_input',
  asked: 'input.requested',
  fromEvent: (e) =>
    e.question
      ? {
          callId: e.callId as string,
          agentId: e.agentId as string,
          runId: e.runId as string,
          question: e.question as ElicitationRequest,
        }
      : undefined,
  settled: ['input.answered', 'tool.result'],
  fromCall: (c) =>
    c.question ? { callId: c.callId, agentId: c.agentId, runId: c.runId, question: c.question } : undefined,
};

export type Questions = Waiting<Question>;

export const useQuestions = (): Questions => useWaiting(QUESTIONS);
