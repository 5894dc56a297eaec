// What a tool returned, as a person reads it: text as text (its lines, not a JSON string with \n
// in it), JSON as indented JSON, an image by its type and size (the page loads nothing inline).
// Control, bidi and invisible characters are shown escaped, as everywhere in the console.
import type { ContentBlock } from '@toolbelt/core';
import { displayText } from '@toolbelt/core/approval';
import { Json } from './json.js';

export function Content({ content }: { content: readonly ContentBlock[] }) {
  if (content.length === 0) return <p class="muted">(no content)</p>;
  return (
    <div class="content">
      {content.map((c, i) =>
        c.type === 'text' ? (
          <pre class="text-result" key={i}>
            {displayText(c.text)}
          </pre>
        ) : c.type === 'json' ? (
          <Json key={i} value={c.json} />
        ) : (
          <p class="muted" key={i}>
            [image {displayText(String(c.mimeType))}, {Math.round((String(c.data).length * 3) / 4)} bytes]
          </p>
        ),
      )}
    </div>
  );
}
