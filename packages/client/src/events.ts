// The event stream as an async iterator: reconnects by itself and resumes with Last-Event-ID, so a
// dropped connection loses nothing and repeats nothing.
import type { GatewayEvent, GatewayEventType, StreamedEvent } from '@toolbelt/protocol';
import { routePath } from '@toolbelt/protocol/routes';
import { createParser } from 'eventsource-parser';
import { GatewayError, isRetryable } from './errors.js';

export interface EventStreamOptions {
  runId?: string;
  agentIds?: string[];
  types?: GatewayEventType[];
  /** Resume after this id; without it the stream starts with live events. */
  lastEventId?: number;
  signal?: AbortSignal;
  /** Reconnect after a drop (default true); refusals such as 401 or 403 end the stream with an error. */
  reconnect?: boolean;
  /** Called each time the stream is connected and caught up, with the id it stands at. */
  onReady?: (lastEventId: number) => void;
  /** Called when the connection drops and a reconnect is planned. */
  onDisconnect?: (err: unknown) => void;
  maxBackoffMs?: number;
  /** The stream's path; default /api/events (a space's: /api/spaces/:spaceId/events). */
  path?: string;
}

export interface Transport {
  url(path: string, query?: Record<string, string | undefined>): string;
  headers(extra?: Record<string, string>): Record<string, string>;
  fetch: typeof fetch;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

export async function* streamEvents(t: Transport, o: EventStreamOptions = {}): AsyncGenerator<StreamedEvent> {
  let last = o.lastEventId;
  let retryMs = 1000;
  let failures = 0;
  const query = { runId: o.runId, agentId: o.agentIds?.join(','), types: o.types?.join(',') };
  while (!o.signal?.aborted) {
    const queue: StreamedEvent[] = [];
    let reader: ReadableStreamDefaultReader<string> | undefined;
    try {
      const headers = t.headers({
        accept: 'text/event-stream',
        ...(last !== undefined ? { 'last-event-id': String(last) } : {}),
      });
      const res = await t.fetch(t.url(o.path ?? routePath('events'), query), {
        headers,
        ...(o.signal ? { signal: o.signal } : {}),
      });
      if (!res.ok || !res.body) throw await GatewayError.from(res);
      const parser = createParser({
        onEvent(msg) {
          if (msg.id === undefined) return;
          const id = Number(msg.id);
          if (msg.event === 'ready') {
            last = id;
            failures = 0;
            o.onReady?.(id);
            return;
          }
          queue.push({ ...(JSON.parse(msg.data) as GatewayEvent), id });
        },
        onRetry(ms) {
          retryMs = ms;
        },
      });
      reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
        while (queue.length) {
          const e = queue.shift()!;
          last = e.id;
          yield e;
        }
      }
      o.onDisconnect?.(new Error('the gateway closed the event stream'));
    } catch (err) {
      if (o.signal?.aborted) return;
      if (!isRetryable(err) || o.reconnect === false) throw err;
      o.onDisconnect?.(err);
    } finally {
      await reader?.cancel().catch(() => {});
    }
    if (o.reconnect === false) return;
    const backoff = Math.min(o.maxBackoffMs ?? 10_000, retryMs * 2 ** Math.min(failures++, 6));
    await sleep(backoff / 2 + Math.random() * (backoff / 2), o.signal);
  }
}
