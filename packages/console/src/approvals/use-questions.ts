// Tools' questions waiting for a person (an MCP server's elicitation during a call): loaded once,
// then kept live from the event stream, like the approval requests beside them.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { CallList, ElicitationRequest } from '@toolbelt/core';
import { api, stream } from '../api.js';
import { PendingSet, withoutCall, withRequest } from './pending-set.js';

export interface Question {
  callId: string;
  agentId?: string;
  runId?: string;
  question: ElicitationRequest;
}

export interface Questions {
  questions: Question[];
  error?: string;
  /** Drops a question this page has just answered (the stream says so too). */
  settle(callId: string): void;
}

export function useQuestions(): Questions {
  const [questions, setQuestions] = useState<Question[]>([]);
  const [error, setError] = useState<string>();
  const pending = useRef(new PendingSet<Question>()).current;
  const drop = (callId: string) => {
    pending.decided(callId);
    setQuestions((all) => withoutCall(all, callId));
  };
  useEffect(() => {
    const add = (q: Question) => {
      pending.asked(q);
      setQuestions((all) => withRequest(all, q));
    };
    return stream(
      '/api/events?types=input.requested,input.answered,tool.result',
      ['input.requested', 'input.answered', 'tool.result'],
      (type, data) => {
        const e = data as { callId: string; agentId?: string; runId?: string; question?: ElicitationRequest };
        if (type === 'input.requested' && e.question) add({ callId: e.callId, agentId: e.agentId, runId: e.runId, question: e.question });
        else drop(e.callId);
      },
      (open) => {
        if (!open) return;
        pending.snapshotRequested();
        api<CallList>('/api/tool-calls?status=awaiting_input&limit=500')
          .then((list) => {
            setError(undefined);
            const asked = list.calls.flatMap((c) => (c.question ? [{ callId: c.callId, agentId: c.agentId, runId: c.runId, question: c.question }] : []));
            setQuestions(pending.merge(asked.reverse()));
          })
          .catch((e: Error) => setError(e.message));
      },
    );
  }, []);
  return { questions, error, settle: drop };
}
