import { defineTool, ToolError, type Tool } from '@toolbelt/core';
import { CALENDAR } from './group.js';
import { z } from 'zod';
import type { ApiClient } from '../net/api.js';
import { badAddress } from '../text/email.js';
import { inZone, nextDay, parseWhen, WHEN_HINT } from '../text/time.js';
import { when, type CalendarEvent, type EventTime } from './event.js';

const description = `Create a Google Calendar event: timed (start with a time) or all-day (start as a date). Attendees get invitations. The user sees the event and approves it first.`;

const input = z.object({
  summary: z.string().trim().min(1).max(500).describe('Title.'),
  start: z
    .string()
    .describe("2025-05-01T09:30 (in the user's zone), 2025-05-01T09:30:00+02:00, or 2025-05-01 for all day."),
  end: z
    .string()
    .optional()
    .describe('Same form as start; for all-day events the last day, inclusive. Omitted: one hour, or one day.'),
  description: z.string().max(8000).optional().describe('Notes.'),
  location: z.string().max(500).optional().describe('Place or address.'),
  attendees: z.array(z.string()).max(100).optional().describe('Email addresses to invite.'),
  calendar_id: z.string().trim().min(1).max(300).default('primary').describe('"primary" or a calendar id.'),
});

type Input = z.infer<typeof input>;

/** The event's start and end as Calendar v3 wants them, or a message saying what is wrong. */
function eventTimes(i: Pick<Input, 'start' | 'end'>, zone: string): { start: EventTime; end: EventTime } | string {
  const start = parseWhen(i.start, zone);
  if (!start) return `start "${i.start}" is not a date or time; ${WHEN_HINT}`;
  const end = i.end === undefined ? undefined : parseWhen(i.end, zone);
  if (i.end !== undefined && !end) return `end "${i.end}" is not a date or time; ${WHEN_HINT}`;
  if ('date' in start) {
    if (end && !('date' in end)) return 'an all-day event ends on a date too (2025-05-02), not a time';
    const last = end && 'date' in end ? end.date : start.date;
    if (last < start.date) return `end (${last}) is before start (${start.date})`;
    return { start: { date: start.date }, end: { date: nextDay(last) } };
  }
  if (end && 'date' in end) return 'a timed event ends at a time too (2025-05-01T10:30), not a date';
  const to = end && 'instant' in end ? end.instant : new Date(start.instant.getTime() + 3_600_000);
  if (to <= start.instant)
    return `end (${inZone(to, zone)}) is not after start (${inZone(start.instant, zone)}, ${zone})`;
  return {
    start: { dateTime: start.instant.toISOString(), timeZone: zone },
    end: { dateTime: to.toISOString(), timeZone: zone },
  };
}

export function calendarCreateEventTool(calendar: ApiClient, timeZone: string): Tool {
  return defineTool({
    name: 'calendar_create_event',
    title: 'Create a calendar event',
    description,
    input,
    category: 'integrations',
    group: CALENDAR,
    annotations: { openWorld: true },
    usualEffect: 'execute',
    timeoutMs: 45_000,
    validate: (i) => {
      const t = eventTimes(i, timeZone);
      return typeof t === 'string' ? t : badAddress({ attendees: i.attendees });
    },
    async prepare(i, ctx) {
      const { eventDetail } = await import('./event-detail.js');
      const times = eventTimes(i, timeZone);
      if (typeof times === 'string') throw new ToolError('INVALID_PARAMS', times);
      const body: Omit<CalendarEvent, 'id'> = {
        summary: i.summary,
        ...times,
        ...(i.description ? { description: i.description } : {}),
        ...(i.location ? { location: i.location } : {}),
        ...(i.attendees?.length ? { attendees: i.attendees.map((email) => ({ email })) } : {}),
      };
      const invites = i.attendees?.length ? ` and invites ${i.attendees.join(', ')}` : '';
      return {
        classification: {
          effect: 'execute',
          reason: `creates "${i.summary}" on ${i.calendar_id} at ${when({ id: '', ...body }, timeZone)}${invites}`,
          floor: { level: 'ask-first', reason: "adds to the user's calendar and may invite people" },
          ...(i.attendees?.length ? { subject: { urls: i.attendees.map((a) => `mailto:${a.toLowerCase()}`) } } : {}),
        },
        preview: () => ({
          kind: 'text',
          text: `Calendar: ${i.calendar_id}\n${eventDetail({ id: '(new)', ...body }, timeZone)}`,
        }),
        async run() {
          const created = await calendar.json<CalendarEvent>(
            `calendars/${encodeURIComponent(i.calendar_id)}/events`,
            { method: 'POST', query: { sendUpdates: i.attendees?.length ? 'all' : 'none' }, json: body, once: true },
            ctx.signal,
          );
          return { content: `Created:\n${eventDetail(created, timeZone)}`, metadata: { id: created.id } };
        },
      };
    },
  });
}
