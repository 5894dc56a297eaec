import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from './html.js';

const md = (html: string) => htmlToMarkdown(html, 'https://example.com/', { mainContent: false }).markdown;

describe('HTML tables as Markdown tables', () => {
  it('keeps a table with a heading row as a GFM table, cells as inline Markdown with pipes escaped', () => {
    const html =
      '<p>Prices:</p><table><caption>Fruit</caption><thead><tr><th>Name</th><th>Price</th></tr></thead>' +
      '<tbody><tr><td><b>Apple</b> | red</td><td>1</td></tr><tr><td><a href="/pear">Pear</a></td><td>2</td></tr></tbody></table><p>done</p>';
    expect(md(html)).toBe(
      [
        'Prices:',
        '',
        'Fruit',
        '',
        '| Name | Price |',
        '| --- | --- |',
        '| **Apple** \\| red | 1 |',
        '| [Pear](https://example.com/pear) | 2 |',
        '',
        'done',
      ].join('\n'),
    );
  });

  it('makes the first row the header of a table without one, and pads short rows and colspans', () => {
    const html =
      '<table><tr><td>a</td><td>b</td><td>c</td></tr><tr><td colspan="2">wide</td><td>x</td></tr><tr><td>short</td></tr></table>';
    expect(md(html)).toBe(['| a | b | c |', '| --- | --- | --- |', '| wide |  | x |', '| short |  |  |'].join('\n'));
  });

  it('keeps a cell on one line and flattens a table nested in it', () => {
    expect(
      md(
        '<table><tr><th>k</th><th>v</th></tr><tr><td>one<br>two</td><td><table><tr><td>inner</td></tr></table></td></tr></table>',
      ),
    ).toBe(['| k | v |', '| --- | --- |', '| one two | inner |'].join('\n'));
  });

  it('no longer runs the cells of a row together (control)', () => {
    expect(md('<table><tr><td>Name</td><td>Price</td></tr></table>')).not.toContain('NamePrice');
  });
});
