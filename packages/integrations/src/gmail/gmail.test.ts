import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Executor, Policy, textOf, ToolRegistry, type ApprovalRequest, type Mode, type Rule } from '@toolbelt/core';
import { CLIENT, fakeGoogle, type FakeGoogle } from '../__fixtures__/google.js';
import { json } from '../__fixtures__/server.js';
import { googleTools } from '../google/index.js';
import { TokenStore } from '../google/tokens.js';

const b64 = (s: string) => Buffer.from(s).toString('base64url');

// Gmail v1 message resources (format=full and format=metadata).
const MESSAGES: Record<string, object> = {
  m1: {
    id: 'm1',
    threadId: 't1',
    labelIds: ['INBOX', 'UNREAD'],
    snippet: 'Lunch on   Friday?',
    internalDate: String(Date.parse('2025-05-01T10:30:00Z')),
    payload: {
      mimeType: 'multipart/mixed',
      headers: [
        { name: 'From', value: 'Ann <ann@example.com>' },
        { name: 'To', value: 'me@example.com' },
        { name: 'Subject', value: 'Lunch' },
      ],
      parts: [
        {
          mimeType: 'multipart/alternative',
          parts: [
            { mimeType: 'text/plain', body: { data: b64('plain version') } },
            {
              mimeType: 'text/html',
              body: {
                data: b64(
                  '<div><p>Lunch on <b>Friday</b>?</p><ul><li>12:00</li><li>13:00</li></ul><style>p{}</style></div>',
                ),
              },
            },
          ],
        },
        { mimeType: 'application/pdf', filename: 'menu.pdf', body: { attachmentId: 'a1', size: 20480 } },
      ],
    },
  },
  m2: {
    id: 'm2',
    labelIds: ['INBOX'],
    snippet: 'Report attached',
    internalDate: String(Date.parse('2025-04-30T23:15:00Z')),
    payload: {
      mimeType: 'text/plain',
      headers: [{ name: 'from', value: 'bob@example.com' }],
      body: { data: b64('Hi,\r\nsee the report.') },
    },
  },
};

let google: FakeGoogle;
let dir: string;
const sent: { raw: string }[] = [];

beforeAll(async () => {
  google = await fakeGoogle();
  google.api = (req, res) => {
    const p = req.url.pathname;
    if (p === '/gmail/v1/users/me/messages')
      return json(res, 200, { messages: [{ id: 'm1', threadId: 't1' }, { id: 'm2' }], resultSizeEstimate: 7 });
    if (p === '/gmail/v1/users/me/messages/send' && req.method === 'POST') {
      sent.push(JSON.parse(req.body));
      return json(res, 200, { id: 'sent-1', threadId: 'ts', labelIds: ['SENT'] });
    }
    const m = /^\/gmail\/v1\/users\/me\/messages\/([^/]+)$/.exec(p);
    if (m && MESSAGES[m[1]]) return json(res, 200, MESSAGES[m[1]]);
    json(res, 404, { error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' } });
  };
  dir = mkdtempSync(join(tmpdir(), 'tb-gmail-'));
  const token = [...google.valid][0] ?? 'access-static';
  google.valid.add(token);
  await TokenStore.in(dir).save({ access_token: token, refresh_token: 'r', expires_at: Date.now() + 3_600_000 });
});

afterAll(async () => {
  await google.close();
  rmSync(dir, { recursive: true, force: true });
});

function executor(
  opts: { mode?: Mode; rules?: Rule[]; answer?: 'approve' | 'reject'; asked?: ApprovalRequest[] } = {},
) {
  const tools = googleTools({
    credentials: CLIENT,
    stateDir: dir,
    timeZone: 'Europe/Berlin',
    endpoints: google.endpoints,
    retry: { baseDelayMs: 1 },
  });
  return new Executor({
    registry: new ToolRegistry().registerAll(tools),
    policy: new Policy({ mode: opts.mode ?? 'safe', rules: opts.rules ?? [] }),
    approver: async (req) => {
      opts.asked?.push(req);
      return opts.answer === 'approve' ? { outcome: 'approve' } : { outcome: 'reject', message: 'not now' };
    },
  });
}

describe('gmail_search', () => {
  it('lists matches as one line each, times in the user zone', async () => {
    const r = await executor().call({ tool: 'gmail_search', input: { query: 'is:unread', max_results: 2 } });
    const list = google.seen.find((s) => s.url.pathname === '/gmail/v1/users/me/messages')!;
    expect(Object.fromEntries(list.url.searchParams)).toEqual({ q: 'is:unread', maxResults: '2' });
    const meta = google.seen.find((s) => s.url.pathname.endsWith('/m1'))!;
    expect(meta.url.searchParams.get('format')).toBe('metadata');
    expect(meta.url.searchParams.getAll('metadataHeaders')).toEqual(['From', 'Subject', 'Date']);
    expect(textOf(r)).toBe(
      [
        '2 of about 7 messages for "is:unread" (times in Europe/Berlin):',
        'm1 | 2025-05-01 12:30 | Ann <ann@example.com> | Lunch (unread) | Lunch on Friday?',
        'm2 | 2025-05-01 01:15 | bob@example.com | (no subject) | Report attached',
      ].join('\n'),
    );
  });
});

describe('gmail_read', () => {
  it('gives headers, then the HTML part as plain text, and names the attachments', async () => {
    const r = await executor().call({ tool: 'gmail_read', input: { message_id: 'm1' } });
    expect(textOf(r)).toBe(
      [
        'From: Ann <ann@example.com>',
        'To: me@example.com',
        'Date: 2025-05-01 12:30 (Europe/Berlin)',
        'Subject: Lunch',
        'Labels: INBOX, UNREAD',
        'Attachments: menu.pdf (application/pdf, 20 KB)',
        '',
        'Lunch on Friday?',
        '',
        '- 12:00',
        '- 13:00',
      ].join('\n'),
    );
  });

  it('reads a plain-text message and reports an unknown id as not found', async () => {
    expect(textOf(await executor().call({ tool: 'gmail_read', input: { message_id: 'm2' } }))).toMatch(
      /\n\nHi,\nsee the report\.$/,
    );
    const missing = await executor().call({ tool: 'gmail_read', input: { message_id: 'nope' } });
    expect(missing.error?.code).toBe('NOT_FOUND');
    expect(missing.error?.message).toContain('Requested entity was not found.');
  });
});

describe('gmail_send', () => {
  const mail = {
    to: ['ann@example.com'],
    cc: 'cc@example.com',
    subject: 'Grüße aus Köln',
    body: 'Hello Ann,\nsee you Friday.',
  };

  it('asks first, even in yolo, with the mail as preview, and sends nothing when rejected', async () => {
    const asked: ApprovalRequest[] = [];
    const before = sent.length;
    const r = await executor({ mode: 'yolo', asked }).call({ tool: 'gmail_send', input: mail });
    expect(r.status).toBe('rejected');
    expect(asked).toHaveLength(1);
    expect(asked[0].preview).toEqual({
      kind: 'text',
      text: 'To: ann@example.com\nCc: cc@example.com\nSubject: Grüße aus Köln\n\nHello Ann,\nsee you Friday.',
    });
    expect(asked[0].reason).toContain('sends an email to ann@example.com, cc@example.com');
    expect(sent.length).toBe(before);
  });

  it('sends an RFC 5322 message, base64url in raw, with the subject as encoded words', async () => {
    const r = await executor({ answer: 'approve' }).call({ tool: 'gmail_send', input: mail });
    expect(textOf(r)).toBe('Sent "Grüße aus Köln" to ann@example.com, cc@example.com (message id sent-1).');
    const message = Buffer.from(sent.at(-1)!.raw, 'base64url').toString('utf8');
    const [head, body] = message.split('\r\n\r\n');
    expect(head.split('\r\n')).toEqual([
      'To: ann@example.com',
      'Cc: cc@example.com',
      `Subject: =?UTF-8?B?${Buffer.from('Grüße aus Köln').toString('base64')}?=`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset="UTF-8"',
      'Content-Transfer-Encoding: base64',
    ]);
    expect(Buffer.from(body, 'base64').toString('utf8')).toBe('Hello Ann,\r\nsee you Friday.');
  });

  it('runs without asking when a rule allows it', async () => {
    const asked: ApprovalRequest[] = [];
    const r = await executor({ asked, rules: [{ tool: 'gmail_send', action: 'allow' }] }).call({
      tool: 'gmail_send',
      input: mail,
    });
    expect(r.status).toBe('success');
    expect(asked).toHaveLength(0);
  });

  it('is never allowed by a broad rule ("*", "gmail_*"): only a rule naming gmail_send allows it', async () => {
    for (const tool of ['*', 'gmail_*', ['gmail_*', 'calendar_*']]) {
      const asked: ApprovalRequest[] = [];
      const r = await executor({ mode: 'yolo', asked, rules: [{ tool, action: 'allow' }] }).call({
        tool: 'gmail_send',
        input: mail,
      });
      expect(r.status).toBe('rejected');
      expect(asked[0].reason).toMatch(/does not name gmail_send/);
    }
    const listed = await executor({ rules: [{ tool: ['gmail_read', 'gmail_send'], action: 'allow' }] }).call({
      tool: 'gmail_send',
      input: mail,
    });
    expect(listed.approvedBy).toBe('rule');
    const behind = await executor({
      rules: [
        { tool: 'gmail_send', action: 'allow' },
        { tool: '*', action: 'allow' },
      ],
    }).call({ tool: 'gmail_send', input: mail });
    expect(behind.approvedBy).toBe('rule');
  });

  it('lets a rule allow recipients by address: every one must match', async () => {
    const asked: ApprovalRequest[] = [];
    const rules: Rule[] = [{ tool: 'gmail_send', url: 'mailto:*@example.com', action: 'allow' }];
    const inside = await executor({ asked, rules }).call({
      tool: 'gmail_send',
      input: { ...mail, to: 'Ann@Example.com' },
    });
    expect(inside.approvedBy).toBe('rule');
    const outside = await executor({ asked, rules }).call({
      tool: 'gmail_send',
      input: { ...mail, bcc: ['eve@elsewhere.org'] },
    });
    expect(outside.status).toBe('rejected');
    expect(asked).toHaveLength(1);
  });

  it('refuses a bad address or a subject with a line break before asking', async () => {
    const asked: ApprovalRequest[] = [];
    const bad = await executor({ asked }).call({ tool: 'gmail_send', input: { ...mail, to: 'ann at example' } });
    expect(bad.error?.code).toBe('INVALID_PARAMS');
    expect(bad.error?.message).toContain('not an email address');
    const injected = await executor({ asked }).call({
      tool: 'gmail_send',
      input: { ...mail, subject: 'Hi\r\nBcc: all@example.com' },
    });
    expect(injected.error?.message).toContain('a subject is one line');
    expect(asked).toHaveLength(0);
  });

  it('retries a send after a 429 but never after a 503, which may have gone through', async () => {
    const before = sent.length;
    google.rateLimit(1);
    expect((await executor({ answer: 'approve' }).call({ tool: 'gmail_send', input: mail })).status).toBe('success');
    expect(sent.length).toBe(before + 1);
    google.unavailable(1);
    const r = await executor({ answer: 'approve' }).call({ tool: 'gmail_send', input: mail });
    expect(r.error).toMatchObject({ code: 'EXECUTION_FAILED', recoverable: true });
    expect(sent.length).toBe(before + 1);
  });
});
