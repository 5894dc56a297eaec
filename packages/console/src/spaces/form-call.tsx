// A call that waits for a person's answer, as a form: from the `schema` the agent sent, else from
// the tool's own input schema, filled with the agent's arguments for the person to correct.
import { useState } from 'preact/hooks';
import { SchemaForm } from '../ui/schema-form.js';
import { GenericCall } from './generic.js';
import type { CallProps } from './renderers.js';

export function FormCall(props: CallProps) {
  const { message, tool, answer } = props;
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const input = (message.input ?? {}) as Record<string, unknown>;
  const asked =
    input.schema && typeof input.schema === 'object' && (input.schema as Record<string, unknown>).properties
      ? (input.schema as Record<string, unknown>)
      : undefined;
  const schema = asked ?? tool?.inputSchema;
  if (!schema || message.status !== 'requires_action') return <GenericCall {...props} />;
  return (
    <div class="form-call">
      {typeof input.message === 'string' && <p class="question">{input.message}</p>}
      <SchemaForm
        id={`answer-${message.id}`}
        schema={schema}
        initial={asked ? {} : input}
        submitLabel="Send answer"
        busy={busy}
        onSubmit={(value) => {
          setBusy(true);
          answer(value)
            .catch((e: Error) => setProblem(e.message))
            .finally(() => setBusy(false));
        }}
      />
      {problem && <p class="error">{problem}</p>}
    </div>
  );
}
