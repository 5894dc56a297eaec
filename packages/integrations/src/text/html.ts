// HTML to plain text for a model: blocks on their own lines, list items bulleted, table cells
// side by side, scripts and styles dropped, entities decoded, whitespace collapsed. Used for mail
// bodies and job descriptions.
import { convert, type HtmlToTextOptions } from 'html-to-text';

const OPTIONS: HtmlToTextOptions = {
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true, noAnchorUrl: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'h2', options: { uppercase: false } },
    { selector: 'h3', options: { uppercase: false } },
    { selector: 'h4', options: { uppercase: false } },
    { selector: 'h5', options: { uppercase: false } },
    { selector: 'h6', options: { uppercase: false } },
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
    { selector: 'ul', options: { itemPrefix: '- ' } },
  ],
};

export function htmlToText(html: string): string {
  return convert(html, OPTIONS)
    .replace(/\u00a0/g, ' ')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
