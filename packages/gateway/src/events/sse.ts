// GET /api/events as a Server-Sent Events stream: replay from the store after Last-Event-ID, then
// live events, with nothing missed or sent twice (ids only ever go up).
import type { EventFilter, GatewayStore, StoredEvent } from '../store/index.js';
import { jsonOfEvent } from '../json.js';
import { spaceOf } from './types.js';
import type { EventRecorder } from './recorder.js';

const PAGE = 500;
/** A client this far behind is cut off; it reconnects and catches up from the store. */
const MAX_BACKLOG = 5000;

function matches(filter: EventFilter, e: StoredEvent['event']): boolean {
  if (filter.runId !== undefined && e.runId !== filter.runId) return false;
  if (filter.agentIds && (e.agentId === undefined || !filter.agentIds.includes(e.agentId))) return false;
  if (filter.types?.length && !filter.types.includes(e.type)) return false;
  if (filter.spaceId !== undefined && spaceOf(e) !== filter.spaceId) return false;
  return true;
}

function frame(
  s: StoredEvent,
  name: (e: StoredEvent['event']) => string,
  shape?: (e: StoredEvent['event']) => StoredEvent['event'],
): string {
  return `id: ${s.id}\nevent: ${name(s.event)}\ndata: ${jsonOfEvent(shape ? shape(s.event) : s.event)}\n\n`;
}

const byType = (e: StoredEvent['event']) => e.type;

export interface SseOptions {
  store: GatewayStore;
  recorder: EventRecorder;
  filter: EventFilter;
  /** Replay events after this id; undefined means live events only. */
  after: number | undefined;
  /** Ends the stream (gateway shutdown). */
  signal: AbortSignal;
  heartbeatMs?: number;
  /** The SSE event name of an event; default its type. */
  name?: (e: StoredEvent['event']) => string;
  /** What of an event this client is sent; default all of it. */
  shape?: (e: StoredEvent['event']) => StoredEvent['event'];
}

/**
 * Replays what was stored after `o.after` through `deliver` (which moves the cursor), page by page;
 * returns the cursor to go live from. Without `o.after` that is the store's last id.
 */
async function catchUp(
  o: SseOptions,
  setCursor: (at: number) => void,
  deliver: (s: StoredEvent) => void,
  isClosed: () => boolean,
): Promise<number> {
  const last = await o.store.lastEventId();
  // An id from the future means the database was replaced: start from where it stands now.
  if (o.after === undefined || o.after > last) return last;
  let cursor = o.after;
  setCursor(cursor);
  for (;;) {
    const page = await o.store.eventsAfter(cursor, o.filter, PAGE);
    for (const s of page) deliver(s);
    if (page.length) cursor = Math.max(cursor, page[page.length - 1].id);
    // A page can end early for its size: only an empty one says the replay is done.
    if (!page.length || isClosed()) return cursor;
  }
}

export function sseStream(o: SseOptions): ReadableStream<Uint8Array> {
  let out: StreamSink | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      out = new StreamSink(controller);
      return feed(o, out);
    },
    cancel() {
      out?.cancel();
    },
  });
}

/** The writing end of one stream: it closes once, and a client that went away only closes it. */
class StreamSink {
  closed = false;
  private readonly encoder = new TextEncoder();
  private cleanup = () => {};

  constructor(private readonly controller: ReadableStreamDefaultController<Uint8Array>) {}

  /** Runs when the stream closes, from either end. */
  onClose(cleanup: () => void): void {
    this.cleanup = cleanup;
  }

  send(text: string): void {
    if (this.closed) return;
    try {
      this.controller.enqueue(this.encoder.encode(text));
    } catch {
      this.close();
    }
  }

  /** More than MAX_BACKLOG frames queued for a client that does not read them. */
  get tooFarBehind(): boolean {
    return (this.controller.desiredSize ?? 0) < -MAX_BACKLOG;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.cleanup();
    try {
      this.controller.close();
    } catch {
      // Already closed by the client going away.
    }
  }

  /** The client cancelled: the stream is closed already. */
  cancel(): void {
    this.closed = true;
    this.cleanup();
  }
}

/** Replays the store, then goes live, until the stream closes. */
async function feed(o: SseOptions, out: StreamSink): Promise<void> {
  let cursor = 0;
  let live = false;
  const backlog: StoredEvent[] = [];
  const deliver = (s: StoredEvent) => {
    if (s.id <= cursor || !matches(o.filter, s.event)) return;
    cursor = s.id;
    out.send(frame(s, o.name ?? byType, o.shape));
    if (out.tooFarBehind) out.close();
  };
  // Subscribe before reading the store, so an event stored meanwhile is either replayed or buffered.
  const unsubscribe = o.recorder.subscribe((s) => (live ? deliver(s) : backlog.push(s)));
  const heartbeat = setInterval(() => out.send(': keep-alive\n\n'), o.heartbeatMs ?? 15_000);
  const onAbort = () => out.close();
  o.signal.addEventListener('abort', onAbort, { once: true });
  out.onClose(() => {
    unsubscribe();
    clearInterval(heartbeat);
    o.signal.removeEventListener('abort', onAbort);
  });
  if (o.signal.aborted) return out.close();
  out.send('retry: 1000\n\n');
  try {
    cursor = await catchUp(
      o,
      (at) => (cursor = at),
      deliver,
      () => out.closed,
    );
  } catch (err) {
    out.send(
      `event: error\ndata: ${JSON.stringify({ message: `could not read stored events: ${(err as Error).message}` })}\n\n`,
    );
    return out.close();
  }
  // Caught up: tell the client where it stands, so even a quiet stream has a resume point.
  out.send(`id: ${cursor}\nevent: ready\ndata: ${JSON.stringify({ lastEventId: cursor })}\n\n`);
  // A stored event with an id at or below the cursor was already replayed (or is older).
  for (const s of backlog.splice(0)) deliver(s);
  live = true;
}
