// A tool's question to the person (an MCP server's elicitation): who asks and why, a form made
// from the question's schema with its defaults filled in, and the three answers MCP knows.
import { useState } from 'preact/hooks';
import type { AnswerBody } from '@toolbelt/protocol';
import { displayText as d } from '@toolbelt/core/approval';
import { api } from '../api.js';
import { SchemaForm } from '../ui/schema-form.js';
import type { Question, Questions } from './use-questions.js';

/** Every question waiting, oldest first. */
export function QuestionCards({ asked, canAnswer }: { asked: Questions; canAnswer: boolean }) {
  return (
    <>
      {asked.error && <p class="error">{asked.error}</p>}
      {asked.items.map((q) => (
        <QuestionCard key={q.callId} q={q} canAnswer={canAnswer} onAnswered={() => asked.settle(q.callId)} />
      ))}
    </>
  );
}

function QuestionCard({ q, canAnswer, onAnswered }: { q: Question; canAnswer: boolean; onAnswered(): void }) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const send = (body: AnswerBody) => {
    setBusy(true);
    api('answerQuestion', { params: { callId: q.callId }, body })
      .then(() => (setProblem(undefined), onAnswered()))
      .catch((e: Error) => setProblem(e.message))
      .finally(() => setBusy(false));
  };
  return (
    <article class="card question" aria-label={`${d(q.question.tool)} asks a question`} data-call={q.callId}>
      <header>
        <h2>
          {d(q.question.source)} asks <code class="muted">{d(q.question.tool)}</code>
        </h2>
        <span class="muted">
          {d(q.agentId ? `agent ${q.agentId}` : `session ${q.question.sessionId}`)}
          {q.runId ? d(` · run ${q.runId}`) : ''} · {d(q.callId)}
        </span>
      </header>
      <p class="question">{d(q.question.message)}</p>
      {problem && (
        <p class="error" role="alert">
          {problem}
        </p>
      )}
      {canAnswer ? (
        <>
          <SchemaForm
            id={`question-${q.callId}`}
            schema={q.question.schema as unknown as Record<string, unknown>}
            submitLabel="Send answer"
            busy={busy}
            onSubmit={(content) =>
              send({ action: 'accept', content: content as Extract<AnswerBody, { action: 'accept' }>['content'] })
            }
          />
          <div class="actions">
            <button disabled={busy} onClick={() => send({ action: 'decline' })} title="the tool hears no, and goes on">
              Decline
            </button>
            <button
              disabled={busy}
              onClick={() => send({ action: 'cancel' })}
              title="the question is dismissed without an answer"
            >
              Dismiss
            </button>
          </div>
        </>
      ) : (
        <p class="warning">This token cannot answer (it lacks the approve role).</p>
      )}
    </article>
  );
}
