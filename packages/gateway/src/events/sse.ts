// GET /api/events as a Server-Sent Events stream: replay from the store after Last-Event-ID, then
// live events, with nothing missed or sent twice (ids only ever go up).
import type { EventFilter, GatewayStore, StoredEvent } from '../store/types.js';
import { jsonOfEvent } from '../json.js';
import type { EventRecorder } from './recorder.js';

const PAGE = 500;
/** A client this far behind is cut off; it reconnects and catches up from the store. */
const MAX_BACKLOG = 5000;

export function matches(filter: EventFilter, e: StoredEvent['event']): boolean {
  if (filter.runId !== undefined && e.runId !== filter.runId) return false;
  if (filter.agentIds && (e.agentId === undefined || !filter.agentIds.includes(e.agentId))) return false;
  if (filter.types?.length && !filter.types.includes(e.type)) return false;
  return true;
}

function frame(s: StoredEvent): string {
  return `id: ${s.id}\nevent: ${s.event.type}\ndata: ${jsonOfEvent(s.event)}\n\n`;
}

export interface SseOptions {
  store: GatewayStore;
  recorder: EventRecorder;
  filter: EventFilter;
  /** Replay events after this id; undefined means live events only. */
  after: number | undefined;
  /** Ends the stream (gateway shutdown). */
  signal: AbortSignal;
  heartbeatMs?: number;
}

/**
 * Replays what was stored after `o.after` through `deliver` (which moves the cursor), page by page;
 * returns the cursor to go live from. Without `o.after` that is the store's last id.
 */
async function catchUp(o: SseOptions, setCursor: (at: number) => void, deliver: (s: StoredEvent) => void, isClosed: () => boolean): Promise<number> {
  const last = await o.store.lastEventId();
  // An id from the future means the database was replaced: start from where it stands now.
  if (o.after === undefined || o.after > last) return last;
  let cursor = o.after;
  setCursor(cursor);
  for (;;) {
    const page = await o.store.eventsAfter(cursor, o.filter, PAGE);
    for (const s of page) deliver(s);
    if (page.length) cursor = Math.max(cursor, page[page.length - 1].id);
    if (page.length < PAGE || isClosed()) return cursor;
  }
}

export function sseStream(o: SseOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cleanup = () => {};
  let closed = false;
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      let cursor = 0;
      let live = false;
      const backlog: StoredEvent[] = [];
      const send = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          close();
        }
      };
      const close = () => {
        if (closed) return;
        closed = true;
        cleanup();
        try {
          controller.close();
        } catch {
          // Already closed by the client going away.
        }
      };
      const deliver = (s: StoredEvent) => {
        if (s.id <= cursor || !matches(o.filter, s.event)) return;
        cursor = s.id;
        send(frame(s));
        if ((controller.desiredSize ?? 0) < -MAX_BACKLOG) close();
      };
      // Subscribe before reading the store, so an event stored meanwhile is either replayed or buffered.
      const unsubscribe = o.recorder.subscribe((s) => (live ? deliver(s) : backlog.push(s)));
      const heartbeat = setInterval(() => send(': keep-alive\n\n'), o.heartbeatMs ?? 15_000);
      const onAbort = () => close();
      o.signal.addEventListener('abort', onAbort, { once: true });
      cleanup = () => {
        unsubscribe();
        clearInterval(heartbeat);
        o.signal.removeEventListener('abort', onAbort);
      };
      if (o.signal.aborted) return close();
      send('retry: 1000\n\n');
      try {
        cursor = await catchUp(
          o,
          (at) => (cursor = at),
          deliver,
          () => closed,
        );
      } catch (err) {
        send(`event: error\ndata: ${JSON.stringify({ message: `could not read stored events: ${(err as Error).message}` })}\n\n`);
        return close();
      }
      // Caught up: tell the client where it stands, so even a quiet stream has a resume point.
      send(`id: ${cursor}\nevent: ready\ndata: ${JSON.stringify({ lastEventId: cursor })}\n\n`);
      // A stored event with an id at or below the cursor was already replayed (or is older).
      for (const s of backlog.splice(0)) deliver(s);
      live = true;
    },
    cancel() {
      closed = true;
      cleanup();
    },
  });
}
