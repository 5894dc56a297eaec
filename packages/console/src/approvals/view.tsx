// Approvals: calls waiting for a person, live; y / s / a approve the selected one, n rejects it.
// Tools' questions to the person (MCP elicitations) wait here too, above the approvals.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApprovalRequest, ApprovalScope } from '@toolbelt/core';
import type { ApproveBody, RejectBody, WhoAmI } from '@toolbelt/protocol';
import { api } from '../api.js';
import { ApprovalCard, type CardProps } from './card.js';
import { Boundary } from './boundary.js';
import { BrokenCard } from './broken-card.js';
import type { DiffLayout } from './preview.js';
import { QuestionCards } from './question-card.js';
import { useApprovals } from './use-approvals.js';
import { displayText as d } from '@toolbelt/core/approval';
import { useQuestions } from './use-questions.js';

const SCOPE_OF_KEY: Record<string, ApprovalScope> = { y: 'once', s: 'session', a: 'always' };

/** Keys act on the selected card unless the person is typing somewhere. */
function typing(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  return !!t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);
}

type Decide = {
  (callId: string, path: 'approve', body: ApproveBody): Promise<void>;
  (callId: string, path: 'reject', body: RejectBody): Promise<void>;
};

function useDecide(
  setBusy: (b: boolean) => void,
  setProblem: (p?: string) => void,
  settle: (callId: string) => void,
  done: () => void,
): Decide {
  return async (callId: string, path: 'approve' | 'reject', body: ApproveBody | RejectBody) => {
    setBusy(true);
    try {
      const params = { callId };
      await (path === 'approve'
        ? api('approveCall', { params, body: body as ApproveBody })
        : api('rejectCall', { params, body: body as RejectBody }));
      setProblem(undefined);
      settle(callId);
      done();
    } catch (e) {
      setProblem((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
}

type Approve = (r: ApprovalRequest, scope: ApprovalScope) => void;

interface KeyTargets {
  current: ApprovalRequest | undefined;
  busy: boolean;
  approve: Approve;
  reject: (callId: string) => void;
  move: (by: number) => void;
}

/**
 * y / s / a approve the selected request, n asks for the rejection's message, j / k move. One
 * listener for the page's life, reading what is on screen from a ref set while rendering: a
 * listener re-registered in an effect would act on the last render's state for the moment between
 * a render and its effect, and ignore a key pressed on a card that has just appeared.
 */
function useKeys(targets: KeyTargets): void {
  const latest = useRef(targets);
  latest.current = targets;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const { current, busy, approve, reject, move } = latest.current;
      if (typing(e) || e.ctrlKey || e.metaKey || e.altKey || !current || busy) return;
      if (SCOPE_OF_KEY[e.key]) approve(current, SCOPE_OF_KEY[e.key]);
      else if (e.key === 'n') reject(current.callId);
      else if (e.key === 'j' || e.key === 'ArrowDown') move(1);
      else if (e.key === 'k' || e.key === 'ArrowUp') move(-1);
      else return;
      e.preventDefault();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);
}

/**
 * Calls whose preview (or whole card) could not be shown, and whose arguments the person has not
 * opened yet: approving them, by button or key, waits until the arguments were read.
 */
function useBlind(onOpened: () => void): {
  isBlind(callId: string): boolean;
  failed(callId: string): void;
  opened(callId: string): void;
} {
  const [failed, setFailed] = useState<ReadonlySet<string>>(new Set());
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set());
  const add = (set: (f: (s: ReadonlySet<string>) => ReadonlySet<string>) => void, id: string) =>
    set((s) => (s.has(id) ? s : new Set(s).add(id)));
  return {
    isBlind: (id) => failed.has(id) && !opened.has(id),
    failed: (id) => add(setFailed, id),
    opened: (id) => {
      if (failed.has(id) && !opened.has(id)) onOpened();
      add(setOpened, id);
    },
  };
}

type Blind = ReturnType<typeof useBlind>;

/** One request's card inside its own boundary: if it throws, a plain card with the raw arguments replaces it alone. */
function GuardedCard({
  r,
  blind,
  busy,
  ...props
}: { r: ApprovalRequest; blind: Blind; busy: boolean } & Omit<
  CardProps,
  'request' | 'busy' | 'blind' | 'onPreviewFailed' | 'onArgumentsOpened'
>) {
  return (
    <Boundary
      onError={() => blind.failed(r.callId)}
      fallback={(error) => (
        <BrokenCard
          request={r}
          error={error}
          blind={blind.isBlind(r.callId)}
          busy={busy}
          onArgumentsOpened={() => blind.opened(r.callId)}
          onApproveOnce={() => props.onApprove('once')}
          onReject={() => props.onReject('')}
        />
      )}
    >
      <ApprovalCard
        {...props}
        request={r}
        busy={busy}
        blind={blind.isBlind(r.callId)}
        onPreviewFailed={() => blind.failed(r.callId)}
        onArgumentsOpened={() => blind.opened(r.callId)}
      />
    </Boundary>
  );
}

function ApprovalsBar({
  count,
  live,
  layout,
  setLayout,
}: {
  count: number;
  live: boolean;
  layout: DiffLayout;
  setLayout(l: DiffLayout): void;
}) {
  return (
    <div class="bar">
      <h1 id="approvals-title">Approvals {count > 0 && <span class="count">{count}</span>}</h1>
      <span class={`live ${live ? 'on' : 'off'}`}>{live ? 'live' : 'reconnecting…'}</span>
      <label class="inline">
        Diff
        <select value={layout} onChange={(e) => setLayout(e.currentTarget.value as DiffLayout)}>
          <option value="side-by-side">side by side</option>
          <option value="line-by-line">unified</option>
        </select>
      </label>
    </div>
  );
}

export function ApprovalsView({ me }: { me: WhoAmI }) {
  const { requests, error, live, settle } = useApprovals();
  const asked = useQuestions();
  const [selected, setSelected] = useState(0);
  const [rejecting, setRejecting] = useState<string>();
  // A destructive call waits for a second yes: which call, and the scope the first one chose.
  const [confirming, setConfirming] = useState<{ callId: string; scope: ApprovalScope }>();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [layout, setLayout] = useState<DiffLayout>(() => (innerWidth < 900 ? 'line-by-line' : 'side-by-side'));
  // Opening the arguments answers the refusal a key got before: its message goes.
  const blind = useBlind(() => setProblem(undefined));
  const current = requests[Math.min(selected, requests.length - 1)];
  const canApprove = me.roles.includes('admin') || me.roles.includes('approve');

  const decide = useDecide(setBusy, setProblem, settle, () => (setRejecting(undefined), setConfirming(undefined)));
  const approve: Approve = (r, scope) => {
    if (blind.isBlind(r.callId))
      return setProblem(`The preview of ${d(r.tool)} could not be shown: open its arguments before approving it.`);
    if (r.effect === 'destructive' && confirming?.callId !== r.callId) setConfirming({ callId: r.callId, scope });
    else void decide(r.callId, 'approve', { scope });
  };
  const move = (by: number) => setSelected((i) => Math.max(0, Math.min(i + by, requests.length - 1)));
  useKeys({ current: confirming ? undefined : current, busy, approve, reject: setRejecting, move });

  return (
    <section aria-labelledby="approvals-title">
      <ApprovalsBar count={requests.length} live={live} layout={layout} setLayout={setLayout} />
      {!canApprove && (
        <p class="warning">This token cannot approve (it lacks the approve role); it sees the requests only.</p>
      )}
      {error && <p class="error">{error}</p>}
      {problem && (
        <p class="error" role="alert">
          {problem}
        </p>
      )}
      <QuestionCards asked={asked} canAnswer={canApprove} />
      <Intro none={requests.length === 0} nothingAsked={asked.items.length === 0} />
      {requests.map((r, i) => (
        <GuardedCard
          key={r.callId}
          r={r}
          blind={blind}
          selected={r === current}
          rejecting={rejecting === r.callId}
          busy={busy}
          layout={layout}
          onSelect={() => setSelected(i)}
          onApprove={(scope) => approve(r, scope)}
          confirming={confirming?.callId === r.callId ? confirming.scope : undefined}
          onConfirm={() => confirming && void decide(r.callId, 'approve', { scope: confirming.scope })}
          onCancelConfirm={() => setConfirming(undefined)}
          onStartReject={() => setRejecting(r.callId)}
          onReject={(message) => void decide(r.callId, 'reject', message ? { message } : {})}
          onCancelReject={() => setRejecting(undefined)}
        />
      ))}
    </section>
  );
}

/** The empty state, or the keys' legend. */
function Intro({ none, nothingAsked }: { none: boolean; nothingAsked: boolean }) {
  return (
    <>
      {none && nothingAsked && (
        <p class="empty">Nothing waits for a decision. Calls the policy asks about appear here as they come.</p>
      )}
      <p class="muted keys" hidden={none}>
        Keys: <kbd>y</kbd> approve once · <kbd>s</kbd> for the session · <kbd>a</kbd> always · <kbd>n</kbd> reject with
        a message · <kbd>j</kbd>/<kbd>k</kbd> move
      </p>
    </>
  );
}
