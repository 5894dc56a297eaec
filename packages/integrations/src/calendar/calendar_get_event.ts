import { defineTool, type Tool } from '@toolbelt/core';
import { CALENDAR } from './group.js';
import { z } from 'zod';
import type { ApiClient } from '../net/api.js';
import type { CalendarEvent } from './event.js';

const description = `Get one Google Calendar event in full: time, place, organizer, attendees and their answers, video and dial-in links, recurrence, description.`;

const input = z.object({
  event_id: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,1024}$/, 'an event id is letters, digits, "_" and "-", as calendar_list_events prints it')
    .describe('The id calendar_list_events printed.'),
  calendar_id: z.string().trim().min(1).max(300).default('primary').describe('"primary" or a calendar id.'),
});

export function calendarGetEventTool(calendar: ApiClient, timeZone: string): Tool {
  return defineTool({
    name: 'calendar_get_event',
    title: 'Get a calendar event',
    description,
    input,
    category: 'integrations',
    group: CALENDAR,
    annotations: { openWorld: true },
    effect: 'read',
    timeoutMs: 45_000,
    async execute({ event_id, calendar_id }, ctx) {
      const { eventDetail } = await import('./event-detail.js');
      const e = await calendar.json<CalendarEvent>(
        `calendars/${encodeURIComponent(calendar_id)}/events/${event_id}`,
        { query: { timeZone } },
        ctx.signal,
      );
      return { content: eventDetail(e, timeZone), metadata: { id: e.id } };
    },
  });
}
