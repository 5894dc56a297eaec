// One event in full, for calendar_get_event and the approval of calendar_create_event: its
// description may be HTML, so this module (and the converter) loads only when an event is shown.
import { htmlToText } from '../text/html.js';
import { person, when, type CalendarEvent } from './event.js';

/** Every detail, one per line, the description last. */
export function eventDetail(e: CalendarEvent, zone: string): string {
  const lines = [`${e.summary || '(no title)'}`, `When: ${when(e, zone)} (${zone})`];
  if (e.location) lines.push(`Where: ${e.location}`);
  if (e.status) lines.push(`Status: ${e.status}`);
  if (e.organizer) lines.push(`Organizer: ${person(e.organizer)}`);
  for (const a of e.attendees ?? []) {
    const notes = [a.responseStatus, a.optional ? 'optional' : '', a.organizer ? 'organizer' : '']
      .filter(Boolean)
      .join(', ');
    lines.push(`Attendee: ${person(a)}${notes ? ` (${notes})` : ''}`);
  }
  const video = e.hangoutLink ?? e.conferenceData?.entryPoints?.find((p) => p.entryPointType === 'video')?.uri;
  if (video) lines.push(`Video call: ${video}`);
  for (const p of e.conferenceData?.entryPoints ?? [])
    if (p.entryPointType === 'phone' && p.uri) lines.push(`Dial-in: ${p.label ?? p.uri}`);
  for (const rule of e.recurrence ?? []) lines.push(`Repeats: ${rule}`);
  if (e.recurringEventId) lines.push(`Series: ${e.recurringEventId}`);
  lines.push(`ID: ${e.id}`);
  if (e.htmlLink) lines.push(`Link: ${e.htmlLink}`);
  const about = e.description
    ? /<[a-z][^>]*>/i.test(e.description)
      ? htmlToText(e.description)
      : e.description.trim()
    : '';
  return about ? `${lines.join('\n')}\n\n${about}` : lines.join('\n');
}
