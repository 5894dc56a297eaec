// The body of a Gmail message as plain text (HTML converted; in multipart/alternative the HTML part
// is preferred, as it is the one senders fill) and its attachments.
import { htmlToText } from '../text/html.js';
import { decodeBody, type MessagePart } from './message.js';

function isAttachment(part: MessagePart): boolean {
  return Boolean(part.filename) || Boolean(part.body?.attachmentId && !part.mimeType?.startsWith('text/'));
}

/** The text of a part and its children: text/plain as it is, text/html converted. */
export function extractText(part: MessagePart | undefined): string {
  if (!part || isAttachment(part)) return '';
  const type = (part.mimeType ?? '').toLowerCase();
  if (type === 'text/plain') return decodeBody(part.body?.data).replace(/\r\n/g, '\n').trim();
  if (type === 'text/html') return htmlToText(decodeBody(part.body?.data));
  const children = part.parts ?? [];
  if (type === 'multipart/alternative') {
    const html = children.find((c) => c.mimeType === 'text/html');
    const chosen = html ?? children.find((c) => c.mimeType === 'text/plain') ?? children.at(-1);
    return extractText(chosen);
  }
  return children
    .map(extractText)
    .filter((t) => t)
    .join('\n\n');
}

export interface Attachment {
  filename: string;
  mimeType: string;
  size: number;
}

export function attachments(part: MessagePart | undefined, found: Attachment[] = []): Attachment[] {
  if (!part) return found;
  if (isAttachment(part) && part.filename)
    found.push({
      filename: part.filename,
      mimeType: part.mimeType ?? 'application/octet-stream',
      size: part.body?.size ?? 0,
    });
  for (const child of part.parts ?? []) attachments(child, found);
  return found;
}

export function sizeInWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
