import { defineTool, ToolError, type Tool, type ToolOutput } from '@toolbelt/core';
import { parseRetryAfter, type HttpRetryOptions } from '@toolbelt/core/net';
import { WEB } from './group.js';
import { z } from 'zod';
import { decodeBody, fetchFollowing, type Fetched } from './fetch.js';
import type { HostPolicy } from './ssrf.js';

const description = `GET a URL as text: HTML as Markdown (main content), JSON pretty-printed. Max 5 redirects, 30 s, 2 MB; no binaries, no private addresses.`;

const input = z.object({
  url: z.string().min(1).max(8192).describe('http(s) URL.'),
  maxChars: z.number().int().min(100).max(1_000_000).default(50_000).describe('Most characters returned.'),
  mainContent: z.boolean().default(true).describe('false: the whole page.'),
});

export interface WebFetchSettings {
  hosts: HostPolicy;
  userAgent: string;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  retry?: HttpRetryOptions;
}

function parseUrl(raw: string): URL | undefined {
  try {
    return new URL(raw.trim());
  } catch {
    return undefined;
  }
}

function statusError(r: Fetched, excerpt: string): ToolError {
  const what = `GET ${r.url.href} returned ${r.status} ${r.statusText}`.trim();
  const body = excerpt ? `: ${excerpt}` : '';
  if (r.status === 404 || r.status === 410) return new ToolError('NOT_FOUND', `${what}${body}. Check the URL.`);
  if (r.status === 401 || r.status === 403)
    return new ToolError('PERMISSION_DENIED', `${what}${body}. The page needs a login or blocks automated clients.`);
  const retry = r.status === 408 || r.status === 429 || r.status >= 500;
  const tried = r.requests > 1 ? ` Sent ${r.requests} times.` : '';
  const after = parseRetryAfter(r.headers['retry-after']);
  const later = retry ? `. Try again later${after ? ` (the server asks for ${Math.ceil(after / 1000)} s)` : ''}.` : '';
  return new ToolError('EXECUTION_FAILED', `${what}${body}${later}${tried}`, { recoverable: retry });
}

const isHtml = (type: string) => /text\/html|application\/xhtml\+xml/i.test(type);
const isJson = (type: string) => /application\/(.+\+)?json|text\/json/i.test(type);
const isText = (type: string) =>
  /^text\/|(application\/(.+\+)?(xml|javascript|ecmascript|x-sh|x-yaml|yaml|toml|csv|x-ndjson))/i.test(type);

function looksBinary(body: Buffer): boolean {
  return body.subarray(0, 4096).includes(0);
}

/** The start of an error page as one line of plain text, to say what the server answered. */
function errorExcerpt(r: Fetched, type: string): string {
  return decodeBody(r.body, type)
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);
}

/** Refuses a response that is not text: a type outside text, HTML and JSON, or no type and a NUL byte. */
function assertText(r: Fetched, type: string): void {
  if (!isHtml(type) && !isJson(type) && !isText(type) && (type || looksBinary(r.body))) {
    throw new ToolError(
      'EXECUTION_FAILED',
      `${r.url.href} is ${type || 'binary data'} (${r.body.length.toLocaleString('en-US')} bytes${r.truncated ? ' or more' : ''}); web_fetch returns text, HTML and JSON only`,
    );
  }
}

/** The body as the model reads it best: HTML as Markdown, whole JSON pretty-printed, the rest as sent. */
async function readable(r: Fetched, type: string, mainContent: boolean): Promise<{ title?: string; content: string }> {
  const text = decodeBody(r.body, type);
  if (isHtml(type) || (!type && /^\s*<(!doctype html|html)/i.test(text))) {
    // The HTML libraries cost ~300 ms to load: only on the first HTML page.
    const { htmlToMarkdown } = await import('./html.js');
    const converted = htmlToMarkdown(text, r.url.href, { mainContent });
    return { title: converted.title, content: converted.markdown };
  }
  if (isJson(type) && !r.truncated) {
    try {
      return { content: JSON.stringify(JSON.parse(text), null, 2) };
    } catch {
      return { content: text };
    }
  }
  return { content: text };
}

interface Page {
  start: URL;
  fetched: Fetched;
  type: string;
  title: string | undefined;
  content: string;
}

/** The header, the content cut to maxChars, and notes on what was left out. */
function pageOutput({ start, fetched: r, type, title, content }: Page, maxChars: number, maxBytes: number): ToolOutput {
  const header = [`URL: ${start.href}`];
  if (r.redirects.length)
    header.push(`Final URL: ${r.url.href} (after ${r.redirects.length} redirect${r.redirects.length > 1 ? 's' : ''})`);
  header.push(`Status: ${r.status} ${r.statusText}`.trim(), `Content-Type: ${type || 'unknown'}`);
  if (title) header.push(`Title: ${title}`);
  const cut = content.length > maxChars;
  header.push(
    `Length: ${content.length.toLocaleString('en-US')} characters${cut ? `, showing the first ${maxChars.toLocaleString('en-US')}` : ''}`,
  );
  const notes: string[] = [];
  if (r.truncated)
    notes.push(
      `[Download stopped at ${Math.round(maxBytes / 1024).toLocaleString('en-US')} KB; the rest of the response was not fetched.]`,
    );
  if (cut)
    notes.push(
      `[Truncated: showing ${maxChars.toLocaleString('en-US')} of ${content.length.toLocaleString('en-US')} characters. Call again with a larger maxChars to see more.]`,
    );
  const body = cut ? content.slice(0, maxChars) : content;
  return {
    content: `${header.join('\n')}\n--- Content ---\n${body}${notes.length ? `\n\n${notes.join('\n')}` : ''}`,
    metadata: {
      url: start.href,
      finalUrl: r.url.href,
      status: r.status,
      contentType: type,
      title,
      chars: content.length,
      truncated: cut || r.truncated,
    },
  };
}

export function webFetchTool(settings: WebFetchSettings): Tool {
  return defineTool({
    name: 'web_fetch',
    title: 'Fetch URL',
    description,
    input,
    category: 'web',
    group: WEB,
    annotations: { openWorld: true, idempotent: true },
    timeoutMs: settings.timeoutMs + 5_000,
    validate({ url }) {
      const u = parseUrl(url);
      if (!u) return `"${url}" is not an absolute URL; include the scheme, e.g. https://example.com/page`;
      if (u.protocol !== 'http:' && u.protocol !== 'https:')
        return `only http and https URLs can be fetched, not ${u.protocol}`;
      return undefined;
    },
    effect: ({ url }) => ({ effect: 'read', subject: { urls: [parseUrl(url)?.href ?? url] } }),
    usualEffect: 'read',
    preview: ({ url }) => ({ kind: 'url', url, method: 'GET' }),
    async execute({ url, maxChars, mainContent }, ctx): Promise<ToolOutput> {
      const start = parseUrl(url)!;
      const onRetry = (retry: number, waitMs: number, reason: string) =>
        ctx.emit({
          type: 'progress',
          progress: retry,
          message: `${reason}; retry ${retry} in ${(waitMs / 1000).toFixed(1)} s`,
        });
      const r = await fetchFollowing(start, { ...settings, signal: ctx.signal, onRetry });
      const type = String(r.headers['content-type'] ?? '').trim();
      if (r.status >= 400) throw statusError(r, errorExcerpt(r, type));
      assertText(r, type);
      const { title, content } = await readable(r, type, mainContent);
      return pageOutput({ start, fetched: r, type, title, content }, maxChars, settings.maxBytes);
    },
  });
}
