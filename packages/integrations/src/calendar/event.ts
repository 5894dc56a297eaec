// A Calendar v3 event resource, and how it reads for a model: times in the user's zone.
import { inZone } from '../text/time.js';

export interface EventTime {
  date?: string;
  dateTime?: string;
  timeZone?: string;
}

export interface CalendarEvent {
  id: string;
  status?: string;
  htmlLink?: string;
  summary?: string;
  description?: string;
  location?: string;
  start?: EventTime;
  end?: EventTime;
  organizer?: { email?: string; displayName?: string };
  attendees?: {
    email?: string;
    displayName?: string;
    responseStatus?: string;
    optional?: boolean;
    organizer?: boolean;
  }[];
  recurrence?: string[];
  recurringEventId?: string;
  hangoutLink?: string;
  conferenceData?: { entryPoints?: { entryPointType?: string; uri?: string; label?: string }[] };
}

/** "2025-05-01 09:00–10:00", "2025-05-01 22:00–2025-05-02 01:00" or "2025-05-01 (all day)". */
export function when(e: CalendarEvent, zone: string): string {
  if (e.start?.date) {
    const lastDay = e.end?.date
      ? new Date(Date.parse(`${e.end.date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)
      : e.start.date;
    return lastDay > e.start.date ? `${e.start.date} – ${lastDay} (all day)` : `${e.start.date} (all day)`;
  }
  if (!e.start?.dateTime) return '(no time)';
  const start = inZone(new Date(e.start.dateTime), zone);
  if (!e.end?.dateTime) return start;
  const end = inZone(new Date(e.end.dateTime), zone);
  return end.slice(0, 10) === start.slice(0, 10) ? `${start}–${end.slice(11)}` : `${start}–${end}`;
}

export const person = (p: { email?: string; displayName?: string } | undefined) =>
  p ? (p.displayName && p.email ? `${p.displayName} <${p.email}>` : (p.email ?? p.displayName ?? '')) : '';

/** One line for a list: id | when | summary | location | status | organizer. */
export function eventLine(e: CalendarEvent, zone: string): string {
  const status = e.status && e.status !== 'confirmed' ? e.status : '';
  return [e.id, when(e, zone), e.summary || '(no title)', e.location, status, person(e.organizer)]
    .filter(Boolean)
    .join(' | ');
}
