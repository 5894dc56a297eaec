// race.test.ts as an unprivileged user: toolbelt running as nobody (65534, the built package) reads
// race/d/shadow with read_file while a process of nobody's swaps `d` with a link to a directory
// outside the workspace that nobody may read (its shadow holds a marker): no call returns the
// marker. The deterministic control shows the swap works for nobody: made between a naive check
// and open, the marker is read; made at read_file's pause hook between its check and open, it is refused.
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupScratch, marker, plant, scratchDir } from '../sandbox/__fixtures__/confined.js';
import { NOBODY, nobodyDir, runnerAsNobody, whyNotAsNobody } from '../sandbox/__fixtures__/nobody.js';

if (whyNotAsNobody) console.warn(`unprivileged race tests skipped: ${whyNotAsNobody}`);

const CALLS = 2_000;
const MARKER = marker('race-outside');
const runner = join(import.meta.dirname, '__fixtures__', 'race-nobody.mjs');
let root: string;
let outside: string;

beforeAll(() => {
  if (whyNotAsNobody) return;
  root = nobodyDir('tb-nobody-race-');
  // Root's, and readable by anyone: nobody can read it, not write it.
  outside = scratchDir('tb-nobody-race-out-');
  plant(outside, { shadow: `${MARKER}\n` });
  chmodSync(outside, 0o755);
});
afterAll(cleanupScratch);

const asNobody = <T>(what: 'control' | 'race') =>
  runnerAsNobody<T & { uid: number }>(runner, { root, outside, what, calls: CALLS, marker: MARKER }, { cwd: root });

describe.skipIf(!!whyNotAsNobody)(
  'a directory swapped for a link, as an unprivileged user (nobody, via setpriv)',
  () => {
    it('control: a naive check-then-open reads the file outside; read_file, swapped at its pause hook, refuses', () => {
      const r = asNobody<{ naive: string; hooked: { status: string; text: string } }>('control');
      expect(r.uid).toBe(NOBODY);
      expect(r.naive).toContain(MARKER);
      expect(r.hooked.status).toBe('error');
      expect(r.hooked.text).toMatch(/changed while it was being opened/);
      expect(r.hooked.text).not.toContain(MARKER);
    });

    it(`${CALLS.toLocaleString('en')} read_file calls against a swapper process: the outside file is never returned`, () => {
      const seen = asNobody<Record<string, number> & { swapperUid: number; examples: string[] }>('race');
      console.log(`read_file race as nobody, ${CALLS} calls:`, seen);
      expect(seen.uid).toBe(NOBODY);
      expect(seen.swapperUid).toBe(NOBODY);
      expect(seen.escaped).toBe(0);
      // The swapper really ran: calls saw the directory, the link, and nothing at all.
      expect(seen.inside + seen.refusedAtCheck + seen.refusedAtOpen + seen.missing + seen.other).toBe(CALLS);
      expect(seen.inside, 'no call read the real directory').toBeGreaterThan(0);
      expect(seen.refusedAtCheck + seen.refusedAtOpen + seen.missing, 'no call met the swap').toBeGreaterThan(0);
    }, 300_000);
  },
);
