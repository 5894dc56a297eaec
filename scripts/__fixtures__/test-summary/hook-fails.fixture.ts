// Every test passes; the file still fails: its cleanup hook throws (as a timed-out hook does).
import { afterAll, expect, it } from 'vitest';

afterAll(() => {
  throw new Error('cleanup failed');
});

it('passes', () => {
  expect(1 + 1).toBe(2);
});
