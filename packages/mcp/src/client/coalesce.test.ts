import { describe, expect, it } from 'vitest';
import { coalesced } from './coalesce.js';

describe('coalesced', () => {
  it('runs once more for any number of asks while it runs, never twice at once', async () => {
    let runs = 0;
    let inFlight = 0;
    let most = 0;
    const refresh = coalesced(async () => {
      runs++;
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 20));
      inFlight--;
    });
    const first = refresh();
    const asks = [refresh(), refresh(), refresh()];
    expect(asks.every((p) => p === first)).toBe(true);
    await first;
    expect([runs, most]).toEqual([2, 1]);
    await refresh();
    expect(runs).toBe(3);
  });
});
