// Dates for a model, in the user's time zone: "2025-05-01 09:30" (or "2025-05-01" for a day).

/** The zone of this process (TZ, else the system's), as an IANA name. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Whether Intl knows the zone name. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(zone, f);
  }
  return f;
}

/** "YYYY-MM-DD HH:mm" of an instant in a zone. */
export function inZone(date: Date, zone: string): string {
  const p = Object.fromEntries(
    formatter(zone)
      .formatToParts(date)
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

/** The zone's offset from UTC at an instant, in minutes (Berlin in summer: 120). */
function offsetMinutes(date: Date, zone: string): number {
  const [d, t] = inZone(date, zone).split(' ');
  const asUtc = Date.parse(`${d}T${t}:00Z`);
  return Math.round((asUtc - Math.floor(date.getTime() / 60_000) * 60_000) / 60_000);
}

/** The instant of a wall-clock time ("2025-05-01T09:30[:00]") in a zone; DST gaps resolve forward. */
export function zonedToInstant(local: string, zone: string): Date {
  const wall = Date.parse(`${local.length === 16 ? `${local}:00` : local}Z`);
  let guess = wall - offsetMinutes(new Date(wall), zone) * 60_000;
  // A second pass settles times near a change of offset.
  guess = wall - offsetMinutes(new Date(guess), zone) * 60_000;
  return new Date(guess);
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** A date ("2025-05-01"), a local time ("2025-05-01T09:30", in `zone`) or an instant ("…Z", "…+02:00"); undefined when none. */
export function parseWhen(text: string, zone: string): { date: string } | { instant: Date } | undefined {
  const t = text.trim();
  if (DATE.test(t) && !Number.isNaN(Date.parse(t))) return { date: t };
  if (LOCAL.test(t) && !Number.isNaN(Date.parse(`${t}Z`))) return { instant: zonedToInstant(t, zone) };
  if (WITH_OFFSET.test(t) && !Number.isNaN(Date.parse(t))) return { instant: new Date(t) };
  return undefined;
}

/** The day after a "YYYY-MM-DD". */
export function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

export const WHEN_HINT =
  'use a date (2025-05-01), a local time (2025-05-01T09:30) or a time with offset (2025-05-01T09:30:00+02:00)';
