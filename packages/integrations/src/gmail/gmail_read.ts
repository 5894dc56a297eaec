import { defineTool, type Tool } from '@toolbelt/core';
import { GMAIL } from './group.js';
import { z } from 'zod';
import type { ApiClient } from '../net/api.js';
import { inZone } from '../text/time.js';
import { header, type GmailMessage } from './message.js';

const description = `Read one Gmail message: its headers, then the body as plain text (HTML converted).`;

const input = z.object({
  message_id: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,100}$/, 'a Gmail message id is letters and digits, as gmail_search prints it')
    .describe('The id gmail_search printed.'),
});

export function gmailReadTool(gmail: ApiClient, timeZone: string): Tool {
  return defineTool({
    name: 'gmail_read',
    title: 'Read a Gmail message',
    description,
    input,
    category: 'integrations',
    group: GMAIL,
    annotations: { openWorld: true },
    effect: 'read',
    timeoutMs: 45_000,
    async execute({ message_id }, ctx) {
      // The HTML converter loads with the first message read, not with the tool.
      const { attachments, extractText, sizeInWords } = await import('./mime.js');
      const m = await gmail.json<GmailMessage>(
        `users/me/messages/${message_id}`,
        { query: { format: 'full' } },
        ctx.signal,
      );
      const files = attachments(m.payload);
      const lines = ['From', 'To', 'Cc', 'Subject'].flatMap((name) => {
        const value = header(m.payload, name);
        return value ? [`${name}: ${value}`] : [];
      });
      if (m.internalDate)
        lines.splice(lines.length - 1, 0, `Date: ${inZone(new Date(Number(m.internalDate)), timeZone)} (${timeZone})`);
      if (m.labelIds?.length) lines.push(`Labels: ${m.labelIds.join(', ')}`);
      if (files.length)
        lines.push(
          `Attachments: ${files.map((f) => `${f.filename} (${f.mimeType}, ${sizeInWords(f.size)})`).join('; ')}`,
        );
      const body = extractText(m.payload) || '(no text body)';
      return { content: `${lines.join('\n')}\n\n${body}`, metadata: { id: m.id, threadId: m.threadId } };
    },
  });
}
