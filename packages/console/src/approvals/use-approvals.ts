// The calls awaiting a person's decision, live.
import type { ApprovalRequest } from '@toolbelt/core';
import { useWaiting, type WaitingSource } from './use-waiting.js';

const APPROVALS: WaitingSource<ApprovalRequest> = {
  status: 'awaiting_approval',
  asked: 'approval.requested',
  fromEvent: (e) => e.request as ApprovalRequest | undefined,
  settled: ['approval.resolved', 'tool.result'],
  fromCall: (c) => c.approval,
};

export function useApprovals() {
  const { items, ...rest } = useWaiting(APPROVALS);
  return { requests: items, ...rest };
}
