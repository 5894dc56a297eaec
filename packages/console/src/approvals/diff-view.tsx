// An edit's diff, drawn by diff2html from the already escaped text (see preview.tsx). Whatever the
// file's language, or none, the lines show: highlighting is a best effort over plain text, and a
// diff diff2html cannot read (a binary file replaced, a diff too large to compute) shows as the
// tool wrote it. The tool's own notes ("… (diff cut at 40000 of 52000 characters)") show below.
import { useEffect, useMemo, useRef } from 'preact/hooks';
import { parse } from 'diff2html';
import { Diff2HtmlUI } from 'diff2html/lib-esm/ui/js/diff2html-ui-base.js';
import 'diff2html/bundles/css/diff2html.min.css';
import { hljs } from './highlight.js';

export type DiffLayout = 'side-by-side' | 'line-by-line';

/** Past this many lines a diff is shown without highlighting: the text matters, the colours can wait. */
const HIGHLIGHT_MAX_LINES = 2000;

/** Lines of a unified diff that are neither headers nor hunk lines: what the tool says about the diff. */
const NOTE = /^(?:\.\.\. )?\(.*\)$/;

function drawInto(el: HTMLElement, files: ReturnType<typeof parse>, layout: DiffLayout, lines: number): void {
  const ui = new Diff2HtmlUI(
    el,
    files,
    { outputFormat: layout, drawFileList: false, matching: 'lines', highlight: false },
    hljs,
  );
  ui.draw();
  if (lines > HIGHLIGHT_MAX_LINES) return;
  try {
    ui.highlightCode();
  } catch {
    // A highlighter that fails leaves the lines as plain text, which is what they are.
  }
}

/** `diff` is the escaped diff text. */
export function DiffView({ diff, layout }: { diff: string; layout: DiffLayout }) {
  const ref = useRef<HTMLDivElement>(null);
  const { files, notes, lines } = useMemo(() => {
    const all = diff.split('\n');
    const parsed = parse(diff);
    return {
      files: parsed.some((f) => f.blocks.length > 0) ? parsed : [],
      notes: all.filter((l) => NOTE.test(l)),
      lines: all.length,
    };
  }, [diff]);
  useEffect(() => {
    if (ref.current && files.length) drawInto(ref.current, files, layout, lines);
  }, [files, layout, lines]);
  if (!files.length)
    return (
      <div class="diff">
        <pre class="raw-diff">{diff.trim() || '(the tool sent an empty diff)'}</pre>
        <p class="muted diff-note">
          No line-by-line diff for this change: the arguments below hold exactly what the call would write.
        </p>
      </div>
    );
  return (
    <>
      <div class="diff" ref={ref} />
      {notes.map((n, i) => (
        <p class="muted diff-note" key={i}>
          {n}
        </p>
      ))}
    </>
  );
}
