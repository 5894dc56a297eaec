// The calls awaiting a person's decision: loaded once, then kept live from the event stream.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApprovalRequest, CallList } from '@toolbelt/core';
import { api, stream } from '../api.js';
import { PendingSet, withoutCall, withRequest } from './pending-set.js';

export interface Approvals {
  requests: ApprovalRequest[];
  error?: string;
  live: boolean;
  /** Drops a request this page has just decided (the stream says so too). */
  settle(callId: string): void;
}

export function useApprovals(): Approvals {
  const [requests, setRequests] = useState<ApprovalRequest[]>([]);
  const [error, setError] = useState<string>();
  const [live, setLive] = useState(false);
  const pending = useRef(new PendingSet<ApprovalRequest>()).current;
  const drop = (callId: string) => {
    pending.decided(callId);
    setRequests((all) => withoutCall(all, callId));
  };
  useEffect(() => {
    const add = (r: ApprovalRequest) => {
      pending.asked(r);
      setRequests((all) => withRequest(all, r));
    };
    const close = stream(
      '/api/events?types=approval.requested,approval.resolved,tool.result',
      ['approval.requested', 'approval.resolved', 'tool.result'],
      (type, data) => {
        const e = data as { callId: string; request?: ApprovalRequest };
        if (type === 'approval.requested' && e.request) add(e.request);
        else drop(e.callId);
      },
      (open) => {
        setLive(open);
        // (Re)connected: what is waiting now, including what was asked while the stream was down.
        if (!open) return;
        pending.snapshotRequested();
        api<CallList>('/api/tool-calls?status=awaiting_approval&limit=500')
          .then((list) => {
            setError(undefined);
            setRequests(pending.merge(list.calls.flatMap((c) => (c.approval ? [c.approval] : [])).reverse()));
          })
          .catch((e: Error) => setError(e.message));
      },
    );
    return close;
  }, []);
  return { requests, error, live, settle: drop };
}
