// What a call would do: a rendered diff for edits, the command and its verdict, the URL, or text.
import { useEffect, useRef } from 'preact/hooks';
import type { Preview } from '@toolbelt/core';
import { Diff2HtmlUI } from 'diff2html/lib-esm/ui/js/diff2html-ui-base.js';
import 'diff2html/bundles/css/diff2html.min.css';
import { hljs } from './highlight.js';

export type DiffLayout = 'side-by-side' | 'line-by-line';

function DiffView({ diff, layout }: { diff: string; layout: DiffLayout }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!ref.current) return;
    const ui = new Diff2HtmlUI(ref.current, diff, { outputFormat: layout, drawFileList: false, matching: 'lines', highlight: true }, hljs);
    ui.draw();
    ui.highlightCode();
  }, [diff, layout]);
  return <div class="diff" ref={ref} />;
}

export function PreviewView({ preview, layout }: { preview: Preview; layout: DiffLayout }) {
  switch (preview.kind) {
    case 'diff':
      return <DiffView diff={preview.diff} layout={layout} />;
    case 'command':
      return (
        <div class="command">
          <pre>
            <code>$ {preview.command}</code>
          </pre>
          <p>
            in <code>{preview.cwd}</code>
            {preview.classification && (
              <>
                {' '}
                · classified <span class="badge">{preview.classification}</span>
              </>
            )}
          </p>
        </div>
      );
    case 'url':
      return (
        <p class="url">
          <span class="badge">{preview.method ?? 'GET'}</span> <code>{preview.url}</code>
        </p>
      );
    case 'text':
      return <pre class="text">{preview.text}</pre>;
  }
}
