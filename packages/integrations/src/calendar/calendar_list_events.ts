import { defineTool, type Tool } from '@toolbelt/core';
import { CALENDAR } from './group.js';
import { z } from 'zod';
import type { ApiClient } from '../net/api.js';
import { inZone, nextDay, parseWhen, WHEN_HINT, zonedToInstant } from '../text/time.js';
import { eventLine, type CalendarEvent } from './event.js';

const description = `List Google Calendar events in a time range (default: today), optionally matching text. One line per event: id | when | summary | location | status | organizer.`;

const input = z.object({
  time_min: z
    .string()
    .optional()
    .describe(
      "Start of the range: a date (2025-05-01) or a time (2025-05-01T09:00); local times are in the user's zone. Omitted: today.",
    ),
  time_max: z
    .string()
    .optional()
    .describe('End of the range, exclusive; a date means the start of that day. Omitted: the day after time_min.'),
  query: z
    .string()
    .trim()
    .max(200)
    .optional()
    .describe('Free text matched against summary, description, location, attendees.'),
  calendar_id: z
    .string()
    .trim()
    .min(1)
    .max(300)
    .default('primary')
    .describe('"primary" or a calendar id (an email address).'),
  max_results: z.number().int().min(1).max(250).default(25).describe('Events to list.'),
});

type Input = z.infer<typeof input>;

function bound(text: string, zone: string, which: string): Date | string {
  const w = parseWhen(text, zone);
  if (!w) return `${which} "${text}" is not a date or time; ${WHEN_HINT}`;
  return 'date' in w ? zonedToInstant(`${w.date}T00:00`, zone) : w.instant;
}

/** [from, to) of the call, or a message saying what is wrong. */
function range(i: Input, zone: string): [Date, Date] | string {
  const today = inZone(new Date(), zone).slice(0, 10);
  const from = bound(i.time_min ?? today, zone, 'time_min');
  if (typeof from === 'string') return from;
  let to: Date | string;
  if (i.time_max) to = bound(i.time_max, zone, 'time_max');
  else to = zonedToInstant(`${nextDay(inZone(from, zone).slice(0, 10))}T00:00`, zone);
  if (typeof to === 'string') return to;
  if (to <= from) return `time_max must be after time_min (${inZone(from, zone)} in ${zone})`;
  return [from, to];
}

export function calendarListEventsTool(calendar: ApiClient, timeZone: string): Tool {
  return defineTool({
    name: 'calendar_list_events',
    title: 'List calendar events',
    description,
    input,
    category: 'integrations',
    group: CALENDAR,
    annotations: { openWorld: true },
    effect: 'read',
    timeoutMs: 45_000,
    validate: (i) => {
      const r = range(i, timeZone);
      return typeof r === 'string' ? r : undefined;
    },
    async execute(i, ctx) {
      const [from, to] = range(i, timeZone) as [Date, Date];
      const answer = await calendar.json<{ items?: CalendarEvent[]; nextPageToken?: string }>(
        `calendars/${encodeURIComponent(i.calendar_id)}/events`,
        {
          query: {
            timeMin: from.toISOString(),
            timeMax: to.toISOString(),
            q: i.query,
            singleEvents: true,
            orderBy: 'startTime',
            maxResults: i.max_results,
            timeZone,
          },
        },
        ctx.signal,
      );
      const items = answer.items ?? [];
      const span = `${inZone(from, timeZone)} to ${inZone(to, timeZone)} (${timeZone})`;
      const matching = i.query ? ` matching "${i.query}"` : '';
      if (!items.length)
        return { content: `No events${matching} on ${i.calendar_id}, ${span}.`, metadata: { count: 0 } };
      const more = answer.nextPageToken ? `\n(more events in the range; narrow it or raise max_results)` : '';
      return {
        content: `${items.length} event${items.length === 1 ? '' : 's'}${matching} on ${i.calendar_id}, ${span}:\n${items.map((e) => eventLine(e, timeZone)).join('\n')}${more}`,
        metadata: { count: items.length },
      };
    },
  });
}
