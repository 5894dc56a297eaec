// The fallback: a call's arguments and its result (or error) as readable JSON.
import { Json } from '../ui/json.js';
import type { CallProps } from './renderers.js';

export function GenericCall({ message, output }: CallProps) {
  return (
    <div class="generic">
      <details open>
        <summary>Arguments</summary>
        <Json value={message.input} />
      </details>
      {output && <pre class="output">{output}</pre>}
      {message.result !== undefined && (
        <details open>
          <summary>Result</summary>
          <Json value={message.result} />
        </details>
      )}
      {message.error && <p class="error">{message.error}</p>}
    </div>
  );
}
