// Numbers and times as people read them. Every time on the page goes through one set of formats
// made for the browser's locale, so a view never shows 4:05 PM next to 16:05: the locale picks
// the 12- or 24-hour clock, and it is the same one everywhere.

/** A duration: one decimal under 10 ms, whole milliseconds above, seconds from 10 s. */
export function ms(n: number): string {
  if (n < 10) return `${Math.round(n * 10) / 10} ms`;
  if (n < 10_000) return `${Math.round(n)} ms`;
  return `${Math.round(n / 100) / 10} s`;
}

export type TimePrecision = 'seconds' | 'minutes' | 'date';

const OPTIONS: Record<TimePrecision, Intl.DateTimeFormatOptions> = {
  seconds: { hour: 'numeric', minute: '2-digit', second: '2-digit' },
  minutes: { hour: 'numeric', minute: '2-digit' },
  date: { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit' },
};

const cache = new Map<string, Intl.DateTimeFormat>();

/** The formatter for a precision in a locale (the browser's when none is given). */
export function timeFormat(precision: TimePrecision, locale?: string): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${precision}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, OPTIONS[precision]);
    cache.set(key, f);
  }
  return f;
}

/** A time of day (to the second by default), or a date and time, in the locale's one clock. */
export function clock(t: string | number, precision: TimePrecision = 'seconds', locale?: string): string {
  return timeFormat(precision, locale).format(new Date(t));
}
