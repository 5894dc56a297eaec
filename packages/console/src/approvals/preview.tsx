// What a call would do: a rendered diff for edits, the command and its verdict, the URL, or text,
// each through displayText (d): control, bidi and invisible characters escaped. A diff is escaped
// before diff2html reads it, so a carriage return can neither hide a line nor split one. A preview
// that cannot be drawn throws, and the card's boundary (boundary.tsx) says so in words.
import type { Preview } from '@toolbelt/core';
import { displayText as d } from '@toolbelt/core/approval';
import { DiffView, type DiffLayout } from './diff-view.js';

export type { DiffLayout };

export function PreviewView({ preview, layout }: { preview: Preview; layout: DiffLayout }) {
  switch (preview.kind) {
    case 'diff':
      return (
        <>
          <p class="path">
            changes <code>{d(preview.path)}</code>
          </p>
          <DiffView diff={d(preview.diff)} layout={layout} />
        </>
      );
    case 'command':
      return (
        <div class="command">
          <pre>
            <code>$ {d(preview.command)}</code>
          </pre>
          <p>
            in <code>{d(preview.cwd)}</code>
            {preview.classification && (
              <>
                {' '}
                · classified <span class="badge">{d(preview.classification)}</span>
              </>
            )}
          </p>
        </div>
      );
    case 'url':
      return (
        <p class="url">
          <span class="badge">{d(preview.method ?? 'GET')}</span> <code>{d(preview.url)}</code>
        </p>
      );
    case 'text':
      return <pre class="text">{d(preview.text)}</pre>;
    default:
      // A kind this console does not know (a newer gateway's): never an empty space where the change should be.
      throw new Error(
        `a preview of kind "${d(String((preview as { kind?: unknown }).kind))}", which this console cannot show`,
      );
  }
}
