// The table's event streams, which (unlike every other route) take the token as ?access_token=:
// EventSource in browsers cannot send headers.
import { ROUTES, type RouteSpec } from '@toolbelt/protocol';

const STREAMS = Object.values(ROUTES as Record<string, RouteSpec>)
  .filter((s) => s.answer === 'event-stream')
  .map((s) => new RegExp(`^${s.path.replace(/:\w+/g, '[^/]+')}$`));

/** Whether a request path is one of the event streams. */
export function isEventStream(path: string): boolean {
  return STREAMS.some((re) => re.test(path));
}
