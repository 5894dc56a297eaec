import { defineTool, type Tool } from '@toolbelt/core';
import { GMAIL } from './group.js';
import { z } from 'zod';
import type { ApiClient } from '../net/api.js';
import { badAddress, emailList } from '../text/email.js';
import { draftPreview, rawMessage, type Draft } from './compose.js';

const description = `Send a plain-text email from the user's Gmail. The user sees the mail and approves it first.`;

const input = z.object({
  to: emailList(1).describe('Recipient addresses.'),
  subject: z
    .string()
    .max(500)
    .regex(/^[^\r\n]*$/, 'a subject is one line')
    .describe('One line.'),
  body: z.string().min(1).max(100_000).describe('Plain text.'),
  cc: emailList(0).optional().describe('Copy to these addresses.'),
  bcc: emailList(0).optional().describe('Blind copy to these addresses.'),
});

export function gmailSendTool(gmail: ApiClient): Tool {
  return defineTool({
    name: 'gmail_send',
    title: 'Send an email',
    description,
    input,
    category: 'integrations',
    group: GMAIL,
    annotations: { openWorld: true },
    usualEffect: 'execute',
    timeoutMs: 45_000,
    validate: (i) => badAddress({ to: i.to, cc: i.cc, bcc: i.bcc }),
    prepare(i, ctx) {
      const draft: Draft = {
        to: i.to,
        subject: i.subject,
        body: i.body,
        ...(i.cc ? { cc: i.cc } : {}),
        ...(i.bcc ? { bcc: i.bcc } : {}),
      };
      const everyone = [...draft.to, ...(draft.cc ?? []), ...(draft.bcc ?? [])];
      return {
        classification: {
          effect: 'execute',
          reason: `sends an email to ${everyone.join(', ')}`,
          floor: { level: 'ask-first', reason: "sends mail in the user's name" },
          // Rules match recipients as URLs: {"tool": "gmail_send", "url": "mailto:*@example.com", "action": "allow"}.
          subject: { urls: everyone.map((a) => `mailto:${a.toLowerCase()}`) },
        },
        preview: () => ({ kind: 'text', text: draftPreview(draft) }),
        async run() {
          const sent = await gmail.json<{ id: string; threadId?: string }>(
            'users/me/messages/send',
            { method: 'POST', json: { raw: rawMessage(draft) }, once: true },
            ctx.signal,
          );
          return {
            content: `Sent "${draft.subject}" to ${everyone.join(', ')} (message id ${sent.id}).`,
            metadata: { id: sent.id, threadId: sent.threadId },
          };
        },
      };
    },
  });
}
