// An AbortSignal that fires when the client goes away. HTTP/1.1 has no way to cancel one request
// but closing its connection, so one signal per connection serves every request on it — and a
// keep-alive client does not pay for a new AbortController (costly in Node 20) on each request.
import { setMaxListeners } from 'node:events';
import type { Socket } from 'node:net';
import type { Context } from 'hono';

const bySocket = new WeakMap<Socket, AbortSignal>();

export function clientSignal(c: Context): AbortSignal {
  const socket = (c.env as { incoming?: { socket?: Socket } } | undefined)?.incoming?.socket;
  if (!socket) return c.req.raw.signal;
  let signal = bySocket.get(socket);
  if (!signal) {
    const controller = new AbortController();
    signal = controller.signal;
    // Pipelined requests share it: many calls may listen at once.
    setMaxListeners(Infinity, signal);
    if (socket.destroyed) controller.abort();
    else socket.once('close', () => controller.abort());
    bySocket.set(socket, signal);
  }
  return signal;
}
