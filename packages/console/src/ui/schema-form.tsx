// A form generated from a JSON Schema object: a field per property (text, number, checkbox,
// choice), JSON for nested values. What it sends is checked by the tool's own schema on the server.
// The schema's words (titles, descriptions, choices) are shown through displayText (d).
import { useState } from 'preact/hooks';
import { displayText as d } from '@toolbelt/core/approval';
import { fieldsOf, initialValues, toInput, type Field } from './schema-fields.js';

interface Props {
  schema: Record<string, unknown>;
  initial?: Record<string, unknown>;
  submitLabel: string;
  busy?: boolean;
  /** Prefix for ids, so two forms on one page do not share them. */
  id: string;
  onSubmit(value: Record<string, unknown>): void;
}

function Input({
  f,
  value,
  set,
  id,
}: {
  f: Field;
  value: string | boolean;
  set(v: string | boolean): void;
  id: string;
}) {
  if (f.kind === 'boolean')
    return <input id={id} type="checkbox" checked={value === true} onChange={(e) => set(e.currentTarget.checked)} />;
  if (f.kind === 'enum')
    return (
      <select id={id} value={String(value)} onChange={(e) => set(e.currentTarget.value)} required={f.required}>
        {!f.required && <option value="">—</option>}
        {f.options!.map((o) => (
          <option key={o} value={o}>
            {d(o)}
          </option>
        ))}
      </select>
    );
  if (f.kind === 'json' || f.kind === 'long')
    return (
      <textarea
        id={id}
        rows={f.kind === 'json' ? 4 : 3}
        value={String(value)}
        onInput={(e) => set(e.currentTarget.value)}
        required={f.required}
        spellcheck={false}
      />
    );
  return (
    <input
      id={id}
      type={f.kind === 'number' ? 'number' : 'text'}
      step={f.kind === 'number' ? 'any' : undefined}
      value={String(value)}
      onInput={(e) => set(e.currentTarget.value)}
      required={f.required}
    />
  );
}

export function SchemaForm({ schema, initial, submitLabel, busy, id, onSubmit }: Props) {
  const fields = fieldsOf(schema);
  const [values, setValues] = useState(() => initialValues(fields, initial));
  const [problem, setProblem] = useState<string>();
  return (
    <form
      class="schema-form"
      onSubmit={(e) => {
        e.preventDefault();
        const out = toInput(fields, values);
        if (typeof out === 'string') return setProblem(out);
        setProblem(undefined);
        onSubmit(out);
      }}
    >
      {fields.length === 0 && <p class="muted">No parameters.</p>}
      {fields.map((f) => (
        <div class={`field ${f.kind}`} key={f.name}>
          <label for={`${id}-${f.name}`}>
            {d(f.title ?? f.name)}
            {f.required && <span aria-label="required"> *</span>}
            {f.kind === 'json' && <span class="muted"> (JSON)</span>}
          </label>
          <Input
            f={f}
            id={`${id}-${f.name}`}
            value={values[f.name]}
            set={(v) => setValues({ ...values, [f.name]: v })}
          />
          {f.description && <small class="muted">{d(f.description)}</small>}
        </div>
      ))}
      {problem && <p class="error">{problem}</p>}
      <button type="submit" class="primary" disabled={busy}>
        {submitLabel}
      </button>
    </form>
  );
}
