// Two gateways' recorders on one PostgreSQL database: a subscriber on either sees every event of
// both, each once, in id order, while both publish at once.
import { afterAll, describe, expect, it } from 'vitest';
import { dropSchemas, freshSchema, PG_URL, pgAvailable } from '../__fixtures__/pg.js';
import { openPgStore } from '../store/pg/index.js';
import type { StoredEvent } from '../store/index.js';
import { EventRecorder } from './recorder.js';

afterAll(dropSchemas, 60_000);

describe.skipIf(!pgAvailable)('EventRecorder on a shared store', () => {
  it("hands each subscriber every instance's events once, in id order", async () => {
    const schema = freshSchema('rec');
    const [a, b] = await Promise.all([openPgStore(PG_URL, { schema }), openPgStore(PG_URL, { schema })]);
    const [ra, rb] = await Promise.all([EventRecorder.start(a), EventRecorder.start(b)]);
    const seen: Record<'a' | 'b', StoredEvent[]> = { a: [], b: [] };
    ra.subscribe((s) => seen.a.push(s));
    rb.subscribe((s) => seen.b.push(s));
    const N = 300;
    for (let i = 0; i < N; i++) {
      (i % 2 ? ra : rb).publish({ type: 'agent.state', state: 'idle', ts: i, sessionId: i % 2 ? 'a' : 'b' });
      if (i % 7 === 0) await new Promise((r) => setImmediate(r));
    }
    await Promise.all([ra.flush(), rb.flush()]);
    const stored = (await a.eventsAfter(0, {}, 10 * N)).map((e) => e.id);
    expect(stored).toHaveLength(N);
    for (let i = 0; i < 200 && (seen.a.length < N || seen.b.length < N); i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(seen.a.map((s) => s.id)).toEqual(stored);
    expect(seen.b.map((s) => s.id)).toEqual(stored);
    ra.close();
    rb.close();
    await Promise.all([a.close(), b.close()]);
  });
});
