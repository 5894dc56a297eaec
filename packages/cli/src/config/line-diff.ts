// A short unified diff of two small texts (a config file against the copy that was trusted), for a
// person to read in an error message: the lines that changed with 3 lines of context, cut short.

type Op = { op: ' ' | '-' | '+'; text: string; a: number; b: number };

const CONTEXT = 3;
const MAX_CELLS = 4_000_000;

function lines(text: string): string[] {
  const all = text.split('\n');
  if (all.at(-1) === '') all.pop();
  return all;
}

/** The edit script from a to b by longest common subsequence; a and b are each op's 1-based line numbers. */
function script(a: string[], b: string[]): Op[] {
  const w = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * w);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * w + j] =
        a[i] === b[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) ops.push({ op: ' ', text: a[i++], a: i, b: ++j });
    else if (i < a.length && (j === b.length || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]))
      ops.push({ op: '-', text: a[i++], a: i, b: j });
    else ops.push({ op: '+', text: b[j++], a: i, b: j });
  }
  return ops;
}

/** Index ranges of ops to show: each change with its context, near ones merged. */
function hunkRanges(ops: Op[]): [number, number][] {
  const ranges: [number, number][] = [];
  ops.forEach((o, k) => {
    if (o.op === ' ') return;
    const start = Math.max(0, k - CONTEXT);
    const end = Math.min(ops.length - 1, k + CONTEXT);
    const last = ranges.at(-1);
    if (last && start <= last[1] + 1) last[1] = end;
    else ranges.push([start, end]);
  });
  return ranges;
}

function header(hunk: Op[]): string {
  const olds = hunk.filter((o) => o.op !== '+');
  const news = hunk.filter((o) => o.op !== '-');
  const first = hunk[0];
  const aStart = olds.length ? olds[0].a : first.a;
  const bStart = news.length ? news[0].b : first.b;
  return `@@ -${aStart},${olds.length} +${bStart},${news.length} @@`;
}

/** `--- from` / `+++ to` and the hunks, at most `maxLines` lines of them; '' when the texts are the same. */
export function lineDiff(before: string, after: string, from: string, to: string, maxLines = 60): string {
  const a = lines(before);
  const b = lines(after);
  const head = [`--- ${from}`, `+++ ${to}`];
  if ((a.length + 1) * (b.length + 1) > MAX_CELLS)
    return [...head, `(too long to compare here: ${a.length} lines -> ${b.length} lines)`].join('\n');
  const ops = script(a, b);
  const body = hunkRanges(ops).flatMap(([s, e]) => {
    const hunk = ops.slice(s, e + 1);
    return [header(hunk), ...hunk.map((o) => `${o.op}${o.text}`)];
  });
  if (!body.length) return '';
  const shown =
    body.length > maxLines ? [...body.slice(0, maxLines), `... (${body.length - maxLines} more lines)`] : body;
  return [...head, ...shown].join('\n');
}
