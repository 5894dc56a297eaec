// A small plain-text table: columns padded to their widest cell; numbers grouped, and numeric
// columns right-aligned.

const NUMERIC = /^-?[\d,]+(\.\d+)?$/;

export function textTable(columns: string[], rows: (string | number)[][]): string {
  const cells = [columns, ...rows.map((r) => r.map((c) => (typeof c === 'number' ? grouped(c) : c)))];
  const widths = columns.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  // The totals row may leave a numeric column's label cells empty.
  const numeric = columns.map(
    (_, i) => cells.slice(1).some((r) => r[i]) && cells.slice(1).every((r) => !r[i] || NUMERIC.test(r[i])),
  );
  const line = (r: string[]) =>
    r
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...cells.slice(1).map(line)].join('\n');
}

/** 1234567 -> "1,234,567". */
function grouped(n: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/** An amount with its cents: 10 -> "10.00", 1234.5 -> "1,234.50". */
export function money(n: number): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}
