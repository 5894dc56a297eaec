// What waits for a person (approval requests, tools' questions): loaded on every (re)connect of
// the event stream, so nothing asked while the page was away is missed, then kept live from it.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { CallRecord } from '@toolbelt/protocol';
import { api, stream } from '../api.js';
import { PendingSet, withoutCall, withRequest } from './pending-set.js';

export interface WaitingSource<T> {
  /** The call status that waits, as GET /api/tool-calls filters it. */
  status: string;
  /** The event that asks, and its item. */
  asked: string;
  fromEvent(data: Record<string, unknown>): T | undefined;
  /** The events that settle a call. */
  settled: string[];
  fromCall(call: CallRecord): T | undefined;
}

export interface Waiting<T> {
  items: T[];
  error?: string;
  live: boolean;
  /** Drops what this page has just answered (the stream says so too). */
  settle(callId: string): void;
}

export function useWaiting<T extends { callId: string }>(source: WaitingSource<T>): Waiting<T> {
  const [items, setItems] = useState<T[]>([]);
  const [error, setError] = useState<string>();
  const [live, setLive] = useState(false);
  const pending = useRef(new PendingSet<T>()).current;
  const drop = (callId: string) => {
    pending.decided(callId);
    setItems((all) => withoutCall(all, callId));
  };
  useEffect(() => {
    const types = [source.asked, ...source.settled];
    const onEvent = (type: string, data: unknown) => {
      const item = type === source.asked ? source.fromEvent(data as Record<string, unknown>) : undefined;
      if (!item) return drop((data as { callId: string }).callId);
      pending.asked(item);
      setItems((all) => withRequest(all, item));
    };
    return stream('events', { query: { types } }, types, onEvent, (open) => {
      setLive(open);
      if (!open) return;
      pending.snapshotRequested();
      api('listCalls', { query: { status: source.status, limit: 500 } })
        .then((list) => {
          setError(undefined);
          setItems(pending.merge(list.calls.flatMap((c) => source.fromCall(c) ?? []).reverse()));
        })
        .catch((e: Error) => setError(e.message));
    });
  }, []);
  return { items, error, live, settle: drop };
}
