// A confirmation: the question, and Confirm / Reject buttons that answer the waiting call.
import { useState } from 'preact/hooks';
import type { CallProps } from './renderers.js';

function questionOf(input: unknown): string {
  const i = (input ?? {}) as Record<string, unknown>;
  for (const key of ['question', 'message', 'prompt', 'text', 'title'])
    if (typeof i[key] === 'string') return i[key] as string;
  return 'Confirm?';
}

export function ConfirmCall({ message, answer }: CallProps) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const waiting = message.status === 'requires_action';
  const send = async (confirmed: boolean) => {
    setBusy(true);
    try {
      await answer({ confirmed });
    } catch (e) {
      setProblem((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const result = message.result as { confirmed?: boolean } | undefined;
  return (
    <div class="confirm">
      <p class="question">{questionOf(message.input)}</p>
      {waiting ? (
        <div class="actions">
          <button class="primary" disabled={busy} onClick={() => void send(true)}>
            Confirm
          </button>
          <button class="danger" disabled={busy} onClick={() => void send(false)}>
            Reject
          </button>
        </div>
      ) : message.status === 'complete' ? (
        <p class="muted">
          {result?.confirmed === true ? '✓ Confirmed' : result?.confirmed === false ? '✗ Rejected' : 'Answered'}
        </p>
      ) : message.status === 'error' ? (
        <p class="error">{message.error ?? 'The call ended with an error.'}</p>
      ) : (
        <p class="muted">Waiting…</p>
      )}
      {problem && <p class="error">{problem}</p>}
    </div>
  );
}
