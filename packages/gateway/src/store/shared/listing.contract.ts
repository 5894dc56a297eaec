// The contract for listings bounded by size: a large field is listed as a preview with a link to the
// whole record, and a page ends once it holds PAGE_CHARS, the rest one page further.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIELD_MAX, PAGE_CHARS } from './listing-bounds.js';
import type { GatewayStore } from './types.js';

const T0 = 1_700_000_000_000;
const big = 'x'.repeat(PAGE_CHARS / 2);

export function listingContract(name: string, make: () => Promise<GatewayStore>): void {
  describe(`${name}: listings bounded by size`, () => {
    let store: GatewayStore;
    beforeEach(async () => {
      store = await make();
    });
    afterEach(async () => {
      await store.close();
    });

    it('lists a large input as a preview that links to the whole call, and a small one whole', async () => {
      const call = { runId: 'r', agentId: 'a', sessionId: 'a', tool: 't', visible: false, createdAt: T0 };
      await store.createCall({ ...call, callId: 'large', input: { big } });
      await store.createCall({ ...call, callId: 'small', input: { q: 1 } });
      const [small, large] = await store.listCalls({ limit: 10 });
      expect(small).toMatchObject({ callId: 'small', input: { q: 1 } });
      expect(small.truncated).toBeUndefined();
      expect(large.truncated).toEqual({ fields: ['input'], size: big.length + 10, href: '/api/tool-calls/large' });
      expect(typeof large.input === 'string' && large.input.length < FIELD_MAX).toBe(true);
      // The control: the record itself is whole.
      expect((await store.getCall('large'))?.input).toEqual({ big });
    });

    it('ends an inbox page once it holds PAGE_CHARS, and the next page has the rest', async () => {
      const call = { runId: 'r', agentId: 'a', sessionId: 'a', tool: 't', input: {}, visible: false, createdAt: T0 };
      for (const id of ['c1', 'c2', 'c3']) {
        await store.createCall({ ...call, callId: id });
        await store.openCall(id, 'pending', T0 + 60_000, T0);
        await store.resolveCall(id, 'r', { result: big }, T0 + 1);
      }
      const first = await store.listInbox('a', { limit: 10 });
      expect(first.map((m) => m.kind === 'tool_result' && m.callId)).toEqual(['c1', 'c2']);
      const rest = await store.listInbox('a', { after: first[1].id, limit: 10 });
      expect(rest.map((m) => m.kind === 'tool_result' && m.callId)).toEqual(['c3']);
    });
  });
}
