// One call awaiting a decision: who asks for what and why, what it would do, and the answers.
// Whatever the call brings is shown through displayText (d): its control, bidi and invisible
// characters escaped, so what the person reads is what runs.
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ApprovalRequest, ApprovalScope } from '@toolbelt/core';
import { Json } from '../ui/json.js';
import { PreviewView, type DiffLayout } from './preview.js';
import { Boundary } from './boundary.js';
import { describeRemember, destructiveWarning, displayText as d, hiddenTextWarning } from '@toolbelt/core/approval';

export interface CardProps {
  request: ApprovalRequest;
  selected: boolean;
  /** The card is asking for the rejection's message (n pressed, or Reject clicked). */
  rejecting: boolean;
  busy: boolean;
  layout: DiffLayout;
  onSelect(): void;
  onApprove(scope: ApprovalScope): void;
  onStartReject(): void;
  onReject(message: string): void;
  onCancelReject(): void;
  /** A destructive call approved once: the scope chosen, while the person confirms it. */
  confirming?: ApprovalScope;
  onConfirm(): void;
  onCancelConfirm(): void;
  /** The preview could not be shown and the person has not opened the arguments yet: no approving. */
  blind: boolean;
  onPreviewFailed(): void;
  onArgumentsOpened(): void;
}

/** What a card shows when its preview cannot be drawn: the reason, and what to read instead. */
function PreviewFailed({ error, blind }: { error: Error; blind: boolean }) {
  return (
    <div class="preview-failed" role="alert">
      <p class="warning">
        ⚠ The preview of this call cannot be shown ({d(error.message)}). You would be approving without seeing the
        change.{' '}
        {blind
          ? 'Open the arguments below and read them first: approving stays off until you do.'
          : 'Read the arguments below: they are exactly what runs.'}
      </p>
    </div>
  );
}

/** The second yes a destructive call needs: what it destroys, and a button that has the focus. */
function ConfirmDestructive({
  warning,
  busy,
  onConfirm,
  onCancel,
}: {
  warning: string;
  busy: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  const ref = useRef<HTMLButtonElement>(null);
  // In the commit that shows it, so a key pressed the moment it appears lands here.
  useLayoutEffect(() => ref.current?.focus(), []);
  return (
    <div
      class="actions confirm"
      role="group"
      aria-label="Confirm a destructive call"
      onKeyDown={(e) => e.key === 'Escape' && onCancel()}
    >
      <p class="warning">⚠ {warning}. Run it?</p>
      <button ref={ref} class="danger" disabled={busy} onClick={onConfirm}>
        Yes, run it
      </button>
      <button disabled={busy} onClick={onCancel}>
        Back
      </button>
    </div>
  );
}

function RejectForm({ onReject, onCancel, busy }: { onReject(m: string): void; onCancel(): void; busy: boolean }) {
  const [message, setMessage] = useState('');
  const ref = useRef<HTMLTextAreaElement>(null);
  // In the commit that shows it, so a key pressed the moment it appears lands here.
  useLayoutEffect(() => ref.current?.focus(), []);
  return (
    <form
      class="reject"
      onSubmit={(e) => {
        e.preventDefault();
        onReject(message.trim());
      }}
    >
      <label>
        Message for the model (optional): what to do instead
        <textarea
          ref={ref}
          rows={2}
          value={message}
          onInput={(e) => setMessage(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') onCancel();
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              onReject(message.trim());
            }
          }}
        />
      </label>
      <button type="submit" class="danger" disabled={busy}>
        Send rejection
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}

/** Who asks for what: the tool, its effect, and the agent, run and call it comes from. */
function CardHeader({ r }: { r: ApprovalRequest }) {
  return (
    <header>
      <h2>
        {d(r.title ?? r.tool)} {r.title && <code class="muted">{d(r.tool)}</code>}{' '}
        <span class={`badge effect-${r.effect}`}>{d(r.effect)}</span>
      </h2>
      <span class="muted">
        {d(r.agentId ? `agent ${r.agentId}` : `session ${r.sessionId}`)}
        {r.runId ? d(` · run ${r.runId}`) : ''} · {d(r.callId)}
      </span>
    </header>
  );
}

/** The answers to a call: approve once, for the session or always, or reject; no approving while blind. */
function Answers(p: CardProps) {
  const remember = describeRemember(p.request.remember);
  return (
    <div class="actions">
      <button class="primary" disabled={p.busy || p.blind} onClick={() => p.onApprove('once')} title="y">
        Approve once <kbd>y</kbd>
      </button>
      <button disabled={p.busy || p.blind} onClick={() => p.onApprove('session')} title="s">
        For this session <kbd>s</kbd>
      </button>
      <button disabled={p.busy || p.blind} onClick={() => p.onApprove('always')} title={`always: ${remember}`}>
        Always <kbd>a</kbd>
      </button>
      <button class="danger" disabled={p.busy} onClick={p.onStartReject} title="n">
        Reject <kbd>n</kbd>
      </button>
      <p class="muted always">Always allows {remember}.</p>
    </div>
  );
}

export function ApprovalCard(p: CardProps) {
  const r = p.request;
  const warning = destructiveWarning(r);
  const hidden = hiddenTextWarning(r);
  return (
    <article
      class={`card approval${p.selected ? ' selected' : ''}`}
      aria-label={`${d(r.tool)} call awaiting approval`}
      onClick={p.onSelect}
      data-call={r.callId}
    >
      <CardHeader r={r} />
      {r.context && (
        <p class="context">
          <span class="muted">Context:</span> {d(r.context)}
        </p>
      )}
      <p class="reason">{d(r.reason)}</p>
      {r.warnings.map((w) => (
        <p class="warning" key={w}>
          ⚠ {d(w)}
        </p>
      ))}
      {hidden && <p class="warning hidden-text">⚠ {hidden}.</p>}
      {r.preview && (
        <Boundary fallback={(e) => <PreviewFailed error={e} blind={p.blind} />} onError={p.onPreviewFailed}>
          <PreviewView preview={r.preview} layout={p.layout} />
        </Boundary>
      )}
      <details open={!r.preview} onToggle={(e) => e.currentTarget.open && p.onArgumentsOpened()}>
        <summary>Arguments</summary>
        <Json value={r.input} />
      </details>
      {warning && !p.confirming && <p class="warning destructive">⚠ {warning}: approving asks once more.</p>}
      {p.rejecting ? (
        <RejectForm onReject={p.onReject} onCancel={p.onCancelReject} busy={p.busy} />
      ) : p.confirming && warning ? (
        <ConfirmDestructive warning={warning} busy={p.busy} onConfirm={p.onConfirm} onCancel={p.onCancelConfirm} />
      ) : (
        <Answers {...p} />
      )}
    </article>
  );
}
