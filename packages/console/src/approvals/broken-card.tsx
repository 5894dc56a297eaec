// The card a call gets when its own card cannot render: who asks, the reason in words, the raw
// arguments, and the answers, with approving off until the arguments are opened. What broke one
// card stays in it; the other cards render as usual.
import type { ApprovalRequest } from '@toolbelt/core';
import { displayText as d } from '@toolbelt/core/approval';
import { Json } from '../ui/json.js';

export interface BrokenCardProps {
  request: ApprovalRequest;
  error: Error;
  blind: boolean;
  busy: boolean;
  onArgumentsOpened(): void;
  onApproveOnce(): void;
  onReject(): void;
}

export function BrokenCard(p: BrokenCardProps) {
  const r = p.request;
  return (
    <article
      class="card approval broken"
      aria-label={`${d(String(r.tool))} call awaiting approval`}
      data-call={r.callId}
    >
      <h2>{d(String(r.tool))}</h2>
      <p class="warning" role="alert">
        ⚠ This request cannot be shown ({d(p.error.message)}).{' '}
        {p.blind
          ? 'Open the arguments and read them first: approving stays off until you do.'
          : 'The arguments below are exactly what runs.'}
      </p>
      <details onToggle={(e) => e.currentTarget.open && p.onArgumentsOpened()}>
        <summary>Arguments</summary>
        <Json value={r.input} />
      </details>
      <div class="actions">
        <button class="primary" disabled={p.busy || p.blind} onClick={p.onApproveOnce}>
          Approve once
        </button>
        <button class="danger" disabled={p.busy} onClick={p.onReject}>
          Reject
        </button>
      </div>
    </article>
  );
}
