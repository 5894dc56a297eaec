// A value as readable, indented JSON.
export function Json({ value }: { value: unknown }) {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? 'undefined');
  } catch {
    text = String(value);
  }
  return <pre class="json">{text}</pre>;
}
