// HTML to Markdown: the main content found by Readability (navigation, ads and footers dropped),
// links made absolute, converted by Turndown. Falls back to the whole body when Readability finds
// nothing worth keeping.
import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';
import { parseDocument, type Doc } from './document.js';
import { addTableRule } from './tables.js';

const turndown = new TurndownService({
  headingStyle: 'atx',
  codeBlockStyle: 'fenced',
  bulletListMarker: '-',
  emDelimiter: '_',
});
turndown.remove([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'form',
] as TurndownService.Filter);
addTableRule(turndown);

export interface Converted {
  title?: string;
  markdown: string;
}

function parse(html: string, base: string): Doc {
  const document = parseDocument(html);
  for (const [selector, attr] of [
    ['a[href]', 'href'],
    ['img[src]', 'src'],
  ] as const) {
    for (const el of document.querySelectorAll(selector)) {
      const value = el.getAttribute(attr);
      if (!value) continue;
      try {
        el.setAttribute(attr, new URL(value, base).href);
      } catch {
        // leave a URL we cannot parse as it is
      }
    }
  }
  return document;
}

export function htmlToMarkdown(html: string, base: string, opts: { mainContent: boolean }): Converted {
  const document = parse(html, base);
  const title = document.title?.trim() || undefined;
  const bodyText = (document.body?.textContent ?? '').replace(/\s+/g, ' ').trim();
  let content: string | undefined;
  if (opts.mainContent) {
    try {
      // Readability rewrites the document it reads, so it gets its own copy.
      const article = new Readability(
        parse(html, base) as unknown as ConstructorParameters<typeof Readability>[0],
      ).parse();
      const articleText = (article?.textContent ?? '').replace(/\s+/g, ' ').trim();
      // A tiny "article" from a long page means Readability picked the wrong part.
      if (article?.content && articleText.length >= Math.min(200, bodyText.length * 0.5)) content = article.content;
    } catch {
      content = undefined;
    }
  }
  content ??= document.body?.innerHTML ?? html;
  const markdown = turndown
    .turndown(content)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { title, markdown };
}
