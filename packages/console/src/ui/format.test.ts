import { describe, expect, it } from 'vitest';
import { clock, ms, timeFormat } from './format.js';

describe('times on the page', () => {
  const t = Date.UTC(2025, 0, 15, 16, 5, 9);

  it.each(['en-US', 'de-DE', 'en-GB', 'ja-JP'])('%s: every format uses the same clock (12 or 24 hours)', (locale) => {
    const cycles = (['seconds', 'minutes', 'date'] as const).map(
      (p) => timeFormat(p, locale).resolvedOptions().hourCycle,
    );
    expect(new Set(cycles).size).toBe(1);
  });

  it('follows the locale: en-US reads 12-hour, de-DE 24-hour, in every precision', () => {
    for (const p of ['seconds', 'minutes', 'date'] as const) {
      const us = timeFormat(p, 'en-US').formatToParts(t);
      const de = timeFormat(p, 'de-DE').formatToParts(t);
      expect(
        us.some((x) => x.type === 'dayPeriod'),
        `en-US ${p}`,
      ).toBe(true);
      expect(
        de.some((x) => x.type === 'dayPeriod'),
        `de-DE ${p}`,
      ).toBe(false);
    }
    expect(clock(t, 'minutes', 'de-DE')).toMatch(/^\d{2}:05$/);
  });

  it('durations', () => {
    expect(ms(3.14)).toBe('3.1 ms');
    expect(ms(420.4)).toBe('420 ms');
    expect(ms(12_345)).toBe('12.3 s');
  });
});
