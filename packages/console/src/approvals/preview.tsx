// What a call would do: a rendered diff for edits, the command and its verdict, the URL, or text,
// each through displayText (d): control, bidi and invisible characters escaped. A diff is escaped
// before diff2html reads it, so a carriage return can neither hide a line nor split one.
import { useEffect, useRef } from 'preact/hooks';
import type { Preview } from '@toolbelt/core';
import { displayText as d } from '@toolbelt/core/approval';
import { Diff2HtmlUI } from 'diff2html/lib-esm/ui/js/diff2html-ui-base.js';
import 'diff2html/bundles/css/diff2html.min.css';
import { hljs } from './highlight.js';

export type DiffLayout = 'side-by-side' | 'line-by-line';

function DiffView({ diff, layout }: { diff: string; layout: DiffLayout }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!ref.current) return;
    const ui = new Diff2HtmlUI(ref.current, d(diff), { outputFormat: layout, drawFileList: false, matching: 'lines', highlight: true }, hljs);
    ui.draw();
    ui.highlightCode();
  }, [diff, layout]);
  return <div class="diff" ref={ref} />;
}

export function PreviewView({ preview, layout }: { preview: Preview; layout: DiffLayout }) {
  switch (preview.kind) {
    case 'diff':
      return (
        <>
          <p class="path">
            changes <code>{d(preview.path)}</code>
          </p>
          <DiffView diff={preview.diff} layout={layout} />
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
  }
}
