// One GET over node:http/https with the SSRF guard's lookup: the body decoded (gzip, deflate,
// br) and cut at a byte cap, redirects returned to the caller rather than followed.
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import { ToolError } from '@toolbelt/core';
import type { HostPolicy } from './ssrf.js';

export interface RawResponse {
  url: URL;
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body went past maxBytes and the rest was not read. */
  truncated: boolean;
}

export interface GetOptions {
  hosts: HostPolicy;
  signal: AbortSignal;
  headers: Record<string, string>;
  maxBytes: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function getOnce(url: URL, opts: GetOptions): Promise<RawResponse> {
  opts.hosts.checkUrl(url);
  return new Promise((resolve, reject) => {
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(
      url,
      { method: 'GET', headers: opts.headers, lookup: opts.hosts.lookup(), agent: false, signal: opts.signal },
      (res) => {
        const base = { url, status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers: res.headers };
        if (REDIRECTS.has(base.status) && res.headers.location) {
          res.resume();
          return resolve({ ...base, body: Buffer.alloc(0), truncated: false });
        }
        let stream: Readable = res;
        const encoding = String(res.headers['content-encoding'] ?? '')
          .trim()
          .toLowerCase();
        if (encoding === 'gzip' || encoding === 'x-gzip') stream = res.pipe(createGunzip());
        else if (encoding === 'deflate') stream = res.pipe(createInflate());
        else if (encoding === 'br') stream = res.pipe(createBrotliDecompress());
        const chunks: Buffer[] = [];
        let size = 0;
        let done = false;
        const finish = (truncated: boolean) => {
          if (done) return;
          done = true;
          resolve({ ...base, body: Buffer.concat(chunks), truncated });
        };
        stream.on('data', (chunk: Buffer) => {
          if (done) return;
          const room = opts.maxBytes - size;
          if (chunk.length <= room) {
            chunks.push(chunk);
            size += chunk.length;
            return;
          }
          chunks.push(chunk.subarray(0, room));
          finish(true);
          req.destroy();
        });
        stream.on('end', () => finish(false));
        stream.on('error', (err) => {
          if (!done) reject(networkError(url, err, opts.signal));
        });
        res.on('error', (err) => {
          if (!done) reject(networkError(url, err, opts.signal));
        });
      },
    );
    req.on('error', (err) => reject(networkError(url, err, opts.signal)));
    req.end();
  });
}

export function isRedirect(r: RawResponse): boolean {
  return REDIRECTS.has(r.status) && r.headers.location !== undefined;
}

function networkError(url: URL, err: Error & { code?: string }, signal: AbortSignal): Error {
  if (err instanceof ToolError) return err;
  if (signal.aborted) {
    const reason = signal.reason as Error | undefined;
    return reason instanceof ToolError ? reason : new ToolError('ABORTED', `fetching ${url.href} was cancelled`);
  }
  switch (err.code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ToolError('NOT_FOUND', `could not resolve host ${url.hostname}; check the URL`);
    case 'ECONNREFUSED':
      return new ToolError('EXECUTION_FAILED', `${url.host} refused the connection`, { recoverable: true });
    case 'ECONNRESET':
    case 'EPIPE':
      // The cause tells the retry loop that the connection dropped.
      return new ToolError('EXECUTION_FAILED', `${url.host} closed the connection before answering`, {
        recoverable: true,
        cause: err,
      });
    default:
      if (/^(Z_|ERR__ERROR)/.test(err.code ?? ''))
        return new ToolError('EXECUTION_FAILED', `${url.href} sent a body that does not match its content-encoding`);
      return new ToolError('EXECUTION_FAILED', `fetching ${url.href} failed: ${err.message}`, { recoverable: true });
  }
}
