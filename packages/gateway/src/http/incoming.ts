// Headers and bodies read straight from Node's IncomingMessage when the app runs on
// @hono/node-server. Touching `c.req.raw.body` or `c.req.header()` there makes the adapter build a
// WHATWG Request (URL, Headers, an AbortController, a web stream over the socket): about a fifth
// of the cost of a whole tool call (bench/gateway). Elsewhere (app.fetch with a Request) the web
// objects are used as they are.
import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit as webBodyLimit } from 'hono/body-limit';
import { ApiError, PayloadTooLargeError } from './errors.js';

/** The client went away mid-body: nobody reads the answer, and it is not a server failure. */
const cutOff = () => new ApiError(400, 'BAD_REQUEST', 'the client closed the connection before sending the whole body');

export function nodeRequest(c: Context): IncomingMessage | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
}

/** A request header (name in lower case), without building a Headers object on Node. */
export function header(c: Context, name: string): string | undefined {
  const incoming = nodeRequest(c);
  if (!incoming) return c.req.header(name);
  // Every value sent under the name, joined with ", " as the web Headers object would have it
  // (incoming.headers keeps only the first Authorization, so a second one would go unnoticed).
  const raw = incoming.rawHeaders;
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i];
    if (key.length === name.length && key.toLowerCase() === name)
      value = value === undefined ? raw[i + 1] : `${value}, ${raw[i + 1]}`;
  }
  return value;
}

/**
 * Refuses a body whose declared length is over the limit before any handler runs; a body without a
 * declared length is counted while it is read (readText).
 */
export function bodyLimit(maxSize: number, onError: (c: Context) => Response): MiddlewareHandler {
  const web = webBodyLimit({ maxSize, onError });
  return async (c, next) => {
    const incoming = nodeRequest(c);
    if (!incoming) return web(c, next);
    const length = incoming.headers['content-length'];
    if (length !== undefined && !incoming.headers['transfer-encoding'] && Number.parseInt(length, 10) > maxSize)
      return onError(c);
    await next();
  };
}

/** The whole body as UTF-8 text, at most `maxSize` bytes. */
export function readText(c: Context, maxSize: number): Promise<string> {
  const incoming = nodeRequest(c);
  if (!incoming) return c.req.text();
  return readIncoming(incoming, maxSize);
}

function readIncoming(incoming: IncomingMessage, maxSize: number): Promise<string> {
  if (incoming.readableEnded) return Promise.resolve('');
  // Destroyed before its end was read: the connection closed, and no 'close' is coming any more.
  if (incoming.destroyed) return Promise.reject(cutOff());
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxSize) {
        done();
        // Stop reading: the adapter drains or drops the rest once the 413 is sent.
        incoming.pause();
        reject(new PayloadTooLargeError(maxSize));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      const text = chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks, size).toString('utf8');
      // A byte order mark is dropped, as the web Request's text() does.
      resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    };
    const onError = () => {
      done();
      reject(cutOff());
    };
    const onClose = () => {
      done();
      reject(cutOff());
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}
