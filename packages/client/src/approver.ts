// Acting as an approver over HTTP: each approval request goes to a handler, whose answer is sent
// back as approve or reject. Returning undefined leaves the call to another approver.
import type { ApprovalRequest, ApprovalScope } from '@toolbelt/core';
import type { GatewayClient } from './client.js';
import { runWorker, type Worker, type WorkerOptions } from './worker.js';

export type ApprovalAnswer =
  { approve: true; scope?: ApprovalScope } | { approve: false; message?: string } | undefined;
export type ApprovalHandler = (request: ApprovalRequest) => ApprovalAnswer | Promise<ApprovalAnswer>;

export function approveWith(client: GatewayClient, handler: ApprovalHandler, o: WorkerOptions = {}): Worker {
  const w = runWorker(
    client,
    { ...o, types: ['approval.requested'] },
    (e) => (e.type === 'approval.requested' ? e.callId : undefined),
    async () => {
      const { calls } = await client.calls({
        status: 'awaiting_approval',
        limit: 500,
        ...(o.runId ? { runId: o.runId } : {}),
      });
      for (const c of calls) {
        if (o.agentIds && !o.agentIds.includes(c.agentId)) continue;
        if (c.approval && !w.seen.has(c.callId)) w.track(handle(c.approval));
      }
    },
    async (e) => {
      if (e.type === 'approval.requested') await handle(e.request);
    },
  );
  async function handle(request: ApprovalRequest): Promise<void> {
    if (w.seen.has(request.callId)) return;
    w.seen.add(request.callId);
    const answer = await handler(request);
    if (!answer) return;
    if (answer.approve) await client.approve(request.callId, answer.scope ?? 'once');
    else await client.reject(request.callId, answer.message);
  }
  return { stop: w.stop, ready: w.ready };
}
