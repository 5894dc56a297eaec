// linkedom builds the tree as written: it adds no <html>, <head> or <body> that the page left out
// (browsers do). A fragment like "<p>hello</p>" becomes a document whose root is the <p> and whose
// body is empty, and everything outside <body> is lost to the conversion. This puts each node
// where a browser would: head-only elements into <head>, everything else into <body>, in order.
import { parseHTML } from 'linkedom';

export type Doc = ReturnType<typeof parseHTML>['document'];
type Node = Doc['documentElement']['childNodes'][number];
type Element = ReturnType<Doc['createElement']>;

const HEAD_ONLY = new Set(['TITLE', 'META', 'LINK', 'BASE']);
const DOCTYPE = /^\s*<!doctype[^>]*>/i;

const tag = (node: Node | null): string => (node?.nodeType === 1 ? node.nodeName.toUpperCase() : '');

export function parseDocument(html: string): Doc {
  let { document } = parseHTML(html);
  if (tag(document.documentElement as Node | null) !== 'HTML')
    ({ document } = parseHTML(`<html>${html.replace(DOCTYPE, '')}</html>`));
  const root = document.documentElement;
  const children = [...root.childNodes];
  // A node with a tag name is an element.
  const named = (name: string) => children.find((n) => tag(n) === name) as Element | undefined;
  const head = named('HEAD') ?? document.createElement('head');
  const body = named('BODY') ?? document.createElement('body');
  const before: Node[] = [];
  const after: Node[] = [];
  let bodySeen = false;
  for (const node of children) {
    if (node === head) continue;
    if (node === body) {
      bodySeen = true;
      continue;
    }
    const name = tag(node);
    // A second <head> or <body> gives up its children, not itself.
    if (name === 'HEAD') head.append(...node.childNodes);
    else if (!bodySeen && HEAD_ONLY.has(name)) head.append(node);
    else (bodySeen ? after : before).push(...(name === 'BODY' ? node.childNodes : [node]));
  }
  body.prepend(...before);
  body.append(...after);
  root.replaceChildren(head, body);
  return document;
}
