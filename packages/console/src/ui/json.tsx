// A value as readable, indented JSON, its control, bidi and invisible characters shown escaped.
import { displayText } from '@toolbelt/core/approval';

export function Json({ value }: { value: unknown }) {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? 'undefined');
  } catch {
    text = String(value);
  }
  return <pre class="json">{displayText(text)}</pre>;
}
