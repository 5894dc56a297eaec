// A think cycle's inbox as the model reads it: one numbered line per message, oldest first, each
// saying where it came from (a space and its sender, or a call the agent made in an earlier cycle).
import type { InboxMessage } from '@toolbelt/client';

const MAX_RESULT_CHARS = 4000;

function clip(text: string): string {
  return text.length <= MAX_RESULT_CHARS
    ? text
    : `${text.slice(0, MAX_RESULT_CHARS)}… (${text.length - MAX_RESULT_CHARS} more characters)`;
}

function line(m: InboxMessage): string {
  if (m.kind === 'message') {
    const msg = m.message;
    const what = msg.kind === 'text' ? (msg.text ?? '') : `[tool ${msg.tool ?? '?'}: ${msg.status}]`;
    return `[space "${m.spaceId}"] ${msg.senderId} (${msg.senderKind}): ${clip(what)}`;
  }
  const from = `${m.tool} (call ${m.callId}, cycle ${m.runId})`;
  if (m.error !== undefined) return `[tool error] ${from}: ${clip(m.error)}`;
  return `[tool result] ${from}: ${clip(JSON.stringify(m.result ?? null))}`;
}

export function inboxText(cycleId: string, messages: readonly InboxMessage[]): string {
  const head = `INBOX of cycle ${cycleId}: ${messages.length} new, oldest first. Each is shown once.`;
  return [head, ...messages.map((m, i) => `${i + 1}. ${line(m)}`)].join('\n');
}
