import type { ApprovalRequest } from '@toolbelt/core';
import { describe, expect, it } from 'vitest';
import { PendingSet } from './pending-set.js';

const req = (callId: string) => ({ callId, tool: 'write_file' }) as ApprovalRequest;
const ids = (list: ApprovalRequest[]) => list.map((r) => r.callId);

describe('the waiting requests across a snapshot', () => {
  it('keeps a call asked while an older snapshot was in flight', () => {
    const set = new PendingSet<ApprovalRequest>();
    set.snapshotRequested();
    set.asked(req('c2'));
    expect(ids(set.merge([req('c1')]))).toEqual(['c1', 'c2']);
  });

  it('does not bring back a call decided while the snapshot was in flight', () => {
    const set = new PendingSet<ApprovalRequest>();
    set.snapshotRequested();
    set.decided('c1');
    expect(ids(set.merge([req('c1'), req('c3')]))).toEqual(['c3']);
  });

  it('takes the snapshot as the truth for what came before it was asked for', () => {
    const set = new PendingSet<ApprovalRequest>();
    set.asked(req('old'));
    set.snapshotRequested();
    expect(ids(set.merge([req('c1')]))).toEqual(['c1']);
  });

  it('lists a call once when both the stream and the snapshot have it', () => {
    const set = new PendingSet<ApprovalRequest>();
    set.snapshotRequested();
    set.asked(req('c1'));
    expect(ids(set.merge([req('c1')]))).toEqual(['c1']);
  });
});
