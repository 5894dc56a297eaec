// HTML tables as Markdown (GFM) tables. Turndown has no table rule (a table came out as its cells'
// text run together), and turndown-plugin-gfm converts only tables with a heading row, leaving the
// rest as raw HTML. Here every table becomes rows of cells: the first row is the header (GFM needs
// one), a colspan repeats an empty cell so columns stay aligned, and a cell's own Markdown is kept
// on one line with its pipes escaped. A table nested in a cell is flattened into that cell's text.
import type TurndownService from 'turndown';

/** The little of a DOM node this needs (turndown's parser gives domino nodes). */
interface Node {
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<Node>;
  innerHTML?: string;
  getAttribute?(name: string): string | null;
}

/** The rows of this table, not of a table nested in one of its cells. */
function rowsOf(table: Node): Node[] {
  const rows: Node[] = [];
  const walk = (node: Node) => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeName === 'TR') rows.push(child);
      else if (child.nodeName === 'THEAD' || child.nodeName === 'TBODY' || child.nodeName === 'TFOOT') walk(child);
    }
  };
  walk(table);
  return rows;
}

function cellsOf(row: Node): Node[] {
  return Array.from(row.childNodes).filter((c) => c.nodeName === 'TD' || c.nodeName === 'TH');
}

function cellText(cell: Node, turndown: TurndownService): string {
  const html = cell.innerHTML ?? '';
  const markdown = html && !/<table[\s>]/i.test(html) ? turndown.turndown(html) : (cell.textContent ?? '');
  return markdown
    .replace(/\s*\n+\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
}

function tableMarkdown(table: Node, turndown: TurndownService): string {
  const rows = rowsOf(table).map((row) =>
    cellsOf(row).flatMap((cell) => {
      const span = Math.min(Math.max(1, Number(cell.getAttribute?.('colspan')) || 1), 50);
      return [cellText(cell, turndown), ...Array<string>(span - 1).fill('')];
    }),
  );
  const width = Math.max(0, ...rows.map((r) => r.length));
  if (width === 0) return '';
  const line = (cells: string[]) => `| ${[...cells, ...Array<string>(width - cells.length).fill('')].join(' | ')} |`;
  const [header, ...body] = rows;
  const caption = Array.from(table.childNodes).find((c) => c.nodeName === 'CAPTION');
  const title = caption ? `${cellText(caption, turndown)}\n\n` : '';
  return `\n\n${title}${[line(header), line(Array<string>(width).fill('---')), ...body.map(line)].join('\n')}\n\n`;
}

export function addTableRule(turndown: TurndownService): void {
  turndown.addRule('table', {
    filter: 'table',
    replacement: (_content, node) => tableMarkdown(node as unknown as Node, turndown),
  });
}
