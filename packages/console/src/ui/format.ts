// Numbers and times as people read them.

/** A duration: one decimal under 10 ms, whole milliseconds above, seconds from 10 s. */
export function ms(n: number): string {
  if (n < 10) return `${Math.round(n * 10) / 10} ms`;
  if (n < 10_000) return `${Math.round(n)} ms`;
  return `${Math.round(n / 100) / 10} s`;
}

/** A time of day, 24-hour, to the second. */
export function clock(t: string | number): string {
  return new Date(t).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
}
