import { describe, expect, it } from 'vitest';
import { htmlToText } from './html.js';
import { money, textTable } from './table.js';
import { inZone, parseWhen, zonedToInstant } from './time.js';

describe('htmlToText', () => {
  it('reads a mail laid out in nested tables: blocks on lines, data tables as columns, links kept', () => {
    const html =
      '<table><tr><td><table><tr><td>Logo</td></tr></table></td></tr><tr><td><p>Hello <b>Ann</b>,</p><p>Your order shipped.</p></td></tr>' +
      '<tr><td><table><tr><th>Item</th><th>Qty</th></tr><tr><td>Widget</td><td>2</td></tr></table></td></tr></table>' +
      '<p>a&nbsp;b &amp; c</p><a href="https://x.y/z">track</a><script>alert(1)</script><style>p{}</style>';
    expect(htmlToText(html)).toBe(
      'Logo\nHello Ann,\n\nYour order shipped.\nItem     Qty\nWidget   2\n\na b & c\n\ntrack [https://x.y/z]',
    );
  });
});

describe('textTable', () => {
  it('pads columns, groups and right-aligns numbers and amounts', () => {
    expect(
      textTable(
        ['name', 'n', 'usd'],
        [
          ['a', 1234, money(1.5)],
          ['bb', 5, money(1234)],
          ['total', 1239, ''],
        ],
      ),
    ).toBe(
      'name       n       usd\n-----  -----  --------\na      1,234      1.50\nbb         5  1,234.00\ntotal  1,239',
    );
  });
});

describe('times in a zone', () => {
  it('turns local times into instants across a change of offset, and reads dates and offsets', () => {
    expect(zonedToInstant('2025-03-30T01:30', 'Europe/Berlin').toISOString()).toBe('2025-03-30T00:30:00.000Z');
    expect(zonedToInstant('2025-03-30T03:30', 'Europe/Berlin').toISOString()).toBe('2025-03-30T01:30:00.000Z');
    expect(inZone(new Date('2025-07-01T12:00:00Z'), 'Asia/Kolkata')).toBe('2025-07-01 17:30');
    expect(parseWhen('2025-05-01', 'UTC')).toEqual({ date: '2025-05-01' });
    expect(parseWhen('2025-05-01T09:30:00+02:00', 'UTC')).toEqual({ instant: new Date('2025-05-01T07:30:00Z') });
    expect(parseWhen('2025-13-45', 'UTC')).toBeUndefined();
    expect(parseWhen('tomorrow', 'UTC')).toBeUndefined();
  });
});
