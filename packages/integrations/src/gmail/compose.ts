// An RFC 5322 plain-text message for users.messages.send: UTF-8 body in base64, non-ASCII
// subjects as RFC 2047 encoded words, the whole message base64url in `raw`.

export interface Draft {
  to: string[];
  cc?: string[];
  bcc?: string[];
  subject: string;
  body: string;
}

/** A subject in US-ASCII as it is, else as encoded words (each under 76 characters). */
function encodeHeader(value: string): string {
  if (/^[\x20-\x7e]*$/.test(value)) return value;
  const words: string[] = [];
  let chunk = '';
  for (const ch of value) {
    if (Buffer.byteLength(chunk + ch) > 45) {
      words.push(chunk);
      chunk = '';
    }
    chunk += ch;
  }
  if (chunk) words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w).toString('base64')}?=`).join('\r\n ');
}

function composeMessage(d: Draft): string {
  const headers = [
    `To: ${d.to.join(', ')}`,
    ...(d.cc?.length ? [`Cc: ${d.cc.join(', ')}`] : []),
    ...(d.bcc?.length ? [`Bcc: ${d.bcc.join(', ')}`] : []),
    `Subject: ${encodeHeader(d.subject)}`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset="UTF-8"',
    'Content-Transfer-Encoding: base64',
  ];
  const body = (
    Buffer.from(d.body.replace(/\r?\n/g, '\r\n'), 'utf8')
      .toString('base64')
      .match(/.{1,76}/g) ?? []
  ).join('\r\n');
  return `${headers.join('\r\n')}\r\n\r\n${body}\r\n`;
}

export function rawMessage(d: Draft): string {
  return Buffer.from(composeMessage(d), 'utf8').toString('base64url');
}

/** What the person approving sees: the mail as it will go out. */
export function draftPreview(d: Draft): string {
  return [
    `To: ${d.to.join(', ')}`,
    ...(d.cc?.length ? [`Cc: ${d.cc.join(', ')}`] : []),
    ...(d.bcc?.length ? [`Bcc: ${d.bcc.join(', ')}`] : []),
    `Subject: ${d.subject}`,
    '',
    d.body,
  ].join('\n');
}
