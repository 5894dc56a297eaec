// Compares what a block printed with the output the doc shows: `…` (or `...`) inside a line stands for
// any text, and a line that is only `…` for any number of lines. Trailing spaces and blank edges are ignored.

const ELLIPSIS = /…|\.\.\./;

function lineRegex(expected: string): RegExp {
  const parts = expected.split(/…|\.\.\./).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`);
}

function clean(text: string): string[] {
  const lines = text
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((l) => l.trimEnd());
  while (lines.length && lines[0] === '') lines.shift();
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function matchFrom(expected: string[], actual: string[], e: number, a: number): boolean {
  if (e === expected.length) return a === actual.length;
  if (ELLIPSIS.test(expected[e]) && expected[e].replace(ELLIPSIS, '').trim() === '') {
    for (let k = a; k <= actual.length; k++) if (matchFrom(expected, actual, e + 1, k)) return true;
    return false;
  }
  return a < actual.length && lineRegex(expected[e]).test(actual[a]) && matchFrom(expected, actual, e + 1, a + 1);
}

/** Undefined when `actual` shows what `expected` says; otherwise both, for the failure message. */
export function outputMismatch(expected: string, actual: string): string | undefined {
  const exp = clean(expected);
  const act = clean(actual);
  if (matchFrom(exp, act, 0, 0)) return undefined;
  return `the doc shows:\n${exp.join('\n')}\n\nbut it printed:\n${act.join('\n')}`;
}
