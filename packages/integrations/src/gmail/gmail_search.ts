import { defineTool, type Tool } from '@toolbelt/core';
import { GMAIL } from './group.js';
import { z } from 'zod';
import type { ApiClient } from '../net/api.js';
import { inZone } from '../text/time.js';
import { header, type GmailMessage } from './message.js';

const description = `Search Gmail with Gmail's search syntax (from:, to:, subject:, is:unread, after:2025/01/31, has:attachment). One line per message: id | date | from | subject | snippet. Read one with gmail_read.`;

const input = z.object({
  query: z.string().trim().min(1).max(1000).describe('Gmail search, e.g. "from:ann@example.com is:unread".'),
  max_results: z.number().int().min(1).max(50).default(10).describe('Messages to list, newest first.'),
});

const HEADERS = ['From', 'Subject', 'Date'];

function line(m: GmailMessage, zone: string): string {
  const when = m.internalDate ? inZone(new Date(Number(m.internalDate)), zone) : (header(m.payload, 'Date') ?? '');
  const unread = m.labelIds?.includes('UNREAD') ? ' (unread)' : '';
  const snippet = (m.snippet ?? '').replace(/\s+/g, ' ').trim().slice(0, 120);
  return [
    m.id,
    when,
    header(m.payload, 'From') ?? '(no sender)',
    `${header(m.payload, 'Subject') ?? '(no subject)'}${unread}`,
    snippet,
  ].join(' | ');
}

export function gmailSearchTool(gmail: ApiClient, timeZone: string): Tool {
  return defineTool({
    name: 'gmail_search',
    title: 'Search Gmail',
    description,
    input,
    category: 'integrations',
    group: GMAIL,
    annotations: { openWorld: true },
    effect: 'read',
    timeoutMs: 60_000,
    async execute({ query, max_results }, ctx) {
      const list = await gmail.json<{ messages?: { id: string }[]; resultSizeEstimate?: number }>(
        'users/me/messages',
        { query: { q: query, maxResults: max_results } },
        ctx.signal,
      );
      const ids = (list.messages ?? []).map((m) => m.id);
      if (!ids.length) return { content: `No messages match "${query}".`, metadata: { count: 0 } };
      const messages = await Promise.all(
        ids.map((id) =>
          gmail.json<GmailMessage>(
            `users/me/messages/${encodeURIComponent(id)}`,
            { query: { format: 'metadata', metadataHeaders: HEADERS } },
            ctx.signal,
          ),
        ),
      );
      const more = (list.resultSizeEstimate ?? 0) > ids.length ? ` of about ${list.resultSizeEstimate}` : '';
      return {
        content: `${ids.length}${more} message${ids.length === 1 && !more ? '' : 's'} for "${query}" (times in ${timeZone}):\n${messages.map((m) => line(m, timeZone)).join('\n')}`,
        metadata: { count: ids.length },
      };
    },
  });
}
