// A Gmail message resource (format=full or metadata) and its headers; no HTML here, so listing
// mail never loads the converter.

export interface MessagePart {
  mimeType?: string;
  filename?: string;
  headers?: { name: string; value: string }[];
  body?: { size?: number; data?: string; attachmentId?: string };
  parts?: MessagePart[];
}

export interface GmailMessage {
  id: string;
  threadId?: string;
  labelIds?: string[];
  snippet?: string;
  internalDate?: string;
  payload?: MessagePart;
}

export function header(part: MessagePart | undefined, name: string): string | undefined {
  const lower = name.toLowerCase();
  return part?.headers?.find((h) => h.name.toLowerCase() === lower)?.value;
}

/** Gmail sends bodies as base64url. */
export function decodeBody(data: string | undefined): string {
  return data ? Buffer.from(data, 'base64url').toString('utf8') : '';
}
