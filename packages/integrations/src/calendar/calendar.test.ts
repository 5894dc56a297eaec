import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Executor, Policy, textOf, ToolRegistry, type ApprovalRequest } from '@toolbelt/core';
import { CLIENT, fakeGoogle, type FakeGoogle } from '../__fixtures__/google.js';
import { json } from '../__fixtures__/server.js';
import { googleTools } from '../google/index.js';
import { TokenStore } from '../google/tokens.js';
import { inZone } from '../text/time.js';

const ZONE = 'America/New_York';

// Calendar v3 event resources.
const EVENTS = [
  {
    id: 'ev1',
    status: 'confirmed',
    summary: 'Standup',
    location: 'Room 4',
    start: { dateTime: '2025-05-01T13:00:00Z' },
    end: { dateTime: '2025-05-01T13:15:00Z' },
    organizer: { email: 'lead@example.com', displayName: 'Lead' },
  },
  {
    id: 'ev2',
    status: 'tentative',
    summary: 'Offsite',
    start: { date: '2025-05-02' },
    end: { date: '2025-05-04' },
    organizer: { email: 'me@example.com' },
  },
];
const DETAIL = {
  ...EVENTS[0],
  htmlLink: 'https://calendar.google.com/event?eid=ev1',
  description: '<p>Daily <b>sync</b></p><ul><li>blockers</li></ul>',
  attendees: [
    { email: 'lead@example.com', displayName: 'Lead', responseStatus: 'accepted', organizer: true },
    { email: 'ann@example.com', responseStatus: 'needsAction', optional: true },
  ],
  recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR'],
  hangoutLink: 'https://meet.google.com/abc-defg-hij',
  conferenceData: { entryPoints: [{ entryPointType: 'phone', uri: 'tel:+1-555-0100', label: '+1 555-0100' }] },
};

let google: FakeGoogle;
let dir: string;
let page: { items: object[]; nextPageToken?: string } = { items: EVENTS };

beforeAll(async () => {
  google = await fakeGoogle();
  google.api = (req, res) => {
    const p = req.url.pathname;
    if (p === '/calendar/v3/calendars/primary/events' && req.method === 'GET')
      return json(res, 200, { kind: 'calendar#events', timeZone: ZONE, ...page });
    if (p === '/calendar/v3/calendars/primary/events' && req.method === 'POST')
      return json(res, 200, { id: 'new1', status: 'confirmed', ...JSON.parse(req.body) });
    if (p === '/calendar/v3/calendars/primary/events/ev1') return json(res, 200, DETAIL);
    json(res, 404, { error: { code: 404, message: 'Not Found' } });
  };
  dir = mkdtempSync(join(tmpdir(), 'tb-cal-'));
  google.valid.add('cal-token');
  await TokenStore.in(dir).save({ access_token: 'cal-token', refresh_token: 'r', expires_at: Date.now() + 3_600_000 });
});

afterAll(async () => {
  await google.close();
  rmSync(dir, { recursive: true, force: true });
});

function executor(asked: ApprovalRequest[] = [], answer: 'approve' | 'reject' = 'approve') {
  const tools = googleTools({
    credentials: CLIENT,
    stateDir: dir,
    timeZone: ZONE,
    endpoints: google.endpoints,
    retry: { baseDelayMs: 1 },
  });
  return new Executor({
    registry: new ToolRegistry().registerAll(tools),
    policy: new Policy({ mode: 'auto-edit' }),
    approver: async (req) => (asked.push(req), answer === 'approve' ? { outcome: 'approve' } : { outcome: 'reject' }),
  });
}

const lastQuery = () => Object.fromEntries(google.seen.at(-1)!.url.searchParams);

describe('calendar_list_events', () => {
  it("lists today in the user's zone by default, one line per event", async () => {
    const r = await executor().call({ tool: 'calendar_list_events', input: {} });
    const q = lastQuery();
    const today = inZone(new Date(), ZONE).slice(0, 10);
    expect(inZone(new Date(q.timeMin), ZONE)).toBe(`${today} 00:00`);
    expect(inZone(new Date(q.timeMax), ZONE).slice(11)).toBe('00:00');
    expect(Date.parse(q.timeMax) - Date.parse(q.timeMin)).toBeGreaterThanOrEqual(23 * 3_600_000);
    expect(q).toMatchObject({ singleEvents: 'true', orderBy: 'startTime', maxResults: '25', timeZone: ZONE });
    expect(textOf(r).split('\n').slice(1)).toEqual([
      'ev1 | 2025-05-01 09:00–09:15 | Standup | Room 4 | Lead <lead@example.com>',
      'ev2 | 2025-05-02 – 2025-05-03 (all day) | Offsite | tentative | me@example.com',
    ]);
  });

  it('takes local times, dates and offsets, with a text query, and says when more events remain', async () => {
    page = { items: EVENTS.slice(0, 1), nextPageToken: 'p2' };
    try {
      const r = await executor().call({
        tool: 'calendar_list_events',
        input: { time_min: '2025-05-01T08:00', time_max: '2025-05-03', query: 'standup' },
      });
      const q = lastQuery();
      expect(q.timeMin).toBe('2025-05-01T12:00:00.000Z');
      expect(q.timeMax).toBe('2025-05-03T04:00:00.000Z');
      expect(q.q).toBe('standup');
      expect(textOf(r)).toMatch(
        /^1 event matching "standup" on primary, 2025-05-01 08:00 to 2025-05-03 00:00 \(America\/New_York\):/,
      );
      expect(textOf(r)).toContain('(more events in the range; narrow it or raise max_results)');
    } finally {
      page = { items: EVENTS };
    }
  });

  it('refuses a range it cannot read before calling the API', async () => {
    const before = google.seen.length;
    const bad = await executor().call({ tool: 'calendar_list_events', input: { time_min: 'next tuesday' } });
    expect(bad.error?.code).toBe('INVALID_PARAMS');
    expect(bad.error?.message).toContain('time_min "next tuesday" is not a date or time; use a date (2025-05-01)');
    const backwards = await executor().call({
      tool: 'calendar_list_events',
      input: { time_min: '2025-05-02', time_max: '2025-05-01' },
    });
    expect(backwards.error?.message).toContain('time_max must be after time_min');
    expect(google.seen.length).toBe(before);
  });
});

describe('calendar_get_event', () => {
  it('gives every detail, the HTML description as text', async () => {
    const r = await executor().call({ tool: 'calendar_get_event', input: { event_id: 'ev1' } });
    expect(textOf(r)).toBe(
      [
        'Standup',
        'When: 2025-05-01 09:00–09:15 (America/New_York)',
        'Where: Room 4',
        'Status: confirmed',
        'Organizer: Lead <lead@example.com>',
        'Attendee: Lead <lead@example.com> (accepted, organizer)',
        'Attendee: ann@example.com (needsAction, optional)',
        'Video call: https://meet.google.com/abc-defg-hij',
        'Dial-in: +1 555-0100',
        'Repeats: RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR',
        'ID: ev1',
        'Link: https://calendar.google.com/event?eid=ev1',
        '',
        'Daily sync',
        '',
        '- blockers',
      ].join('\n'),
    );
  });
});

describe('calendar_create_event', () => {
  it('asks first, even in auto-edit, showing the event, then creates it in the user zone and invites', async () => {
    const asked: ApprovalRequest[] = [];
    const r = await executor(asked).call({
      tool: 'calendar_create_event',
      input: { summary: 'Review', start: '2025-05-01T15:30', attendees: ['ann@example.com'], location: 'Zoom' },
    });
    expect(asked).toHaveLength(1);
    expect(asked[0].reason).toContain(
      'creates "Review" on primary at 2025-05-01 15:30–16:30 and invites ann@example.com',
    );
    expect(asked[0].preview).toMatchObject({ kind: 'text' });
    expect((asked[0].preview as { text: string }).text).toContain(
      'When: 2025-05-01 15:30–16:30 (America/New_York)\nWhere: Zoom\nAttendee: ann@example.com',
    );
    const post = google.seen.at(-1)!;
    expect(post.url.searchParams.get('sendUpdates')).toBe('all');
    expect(JSON.parse(post.body)).toEqual({
      summary: 'Review',
      start: { dateTime: '2025-05-01T19:30:00.000Z', timeZone: ZONE },
      end: { dateTime: '2025-05-01T20:30:00.000Z', timeZone: ZONE },
      location: 'Zoom',
      attendees: [{ email: 'ann@example.com' }],
    });
    expect(textOf(r)).toMatch(/^Created:\nReview\nWhen: 2025-05-01 15:30–16:30/);
  });

  it('makes an all-day event whose inclusive last day becomes the exclusive end', async () => {
    await executor().call({
      tool: 'calendar_create_event',
      input: { summary: 'Trip', start: '2025-05-02', end: '2025-05-04' },
    });
    const post = google.seen.at(-1)!;
    expect(JSON.parse(post.body)).toMatchObject({ start: { date: '2025-05-02' }, end: { date: '2025-05-05' } });
    expect(post.url.searchParams.get('sendUpdates')).toBe('none');
  });

  it('creates nothing when rejected, and refuses mixed or reversed times', async () => {
    const before = google.seen.length;
    const r = await executor([], 'reject').call({
      tool: 'calendar_create_event',
      input: { summary: 'X', start: '2025-05-01T10:00' },
    });
    expect(r.status).toBe('rejected');
    const mixed = await executor().call({
      tool: 'calendar_create_event',
      input: { summary: 'X', start: '2025-05-01', end: '2025-05-01T10:00' },
    });
    expect(mixed.error?.message).toContain('an all-day event ends on a date too');
    const reversed = await executor().call({
      tool: 'calendar_create_event',
      input: { summary: 'X', start: '2025-05-01T10:00', end: '2025-05-01T09:00' },
    });
    expect(reversed.error?.message).toContain(
      'end (2025-05-01 09:00) is not after start (2025-05-01 10:00, America/New_York)',
    );
    const invite = await executor().call({
      tool: 'calendar_create_event',
      input: { summary: 'X', start: '2025-05-01T10:00', attendees: ['ann@example.com', 'Bob <bob@x.org>'] },
    });
    expect(invite.error?.message).toContain('attendees: "Bob <bob@x.org>" is not an email address');
    expect(google.seen.length).toBe(before);
  });
});
